"""The parser of ``{selfcheck}`` directives: from text to a checked :class:`Spec`.

:func:`parse` splits a directive's content into the question and its trailing
``- [ ]`` / ``- [x]`` choices and checks their shape (the number's answer and
settings are checked by ``selfcheck_check.py``); :func:`read_blocks` finds every
directive of a MyST source, for the tests, which check the chapters without a build.
"""

from __future__ import annotations

import re

from selfcheck_check import OPTIONS, SelfCheckError, Spec, number_settings

CHOICE = re.compile(r"^- \[(?P<mark>[ xX])\] (?P<text>.*)$")
FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*)$")


def parse(options: dict[str, str], content: list[str]) -> Spec:
    """Check a directive's options and content and return its :class:`Spec`.

    ``options`` maps option names to their raw text; ``content`` is the directive's body,
    line by line. Raises :class:`SelfCheckError` with a message for the author.
    """
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise SelfCheckError(f"unknown option(s) {unknown}; allowed: {sorted(OPTIONS)}")
    feedback = (options.get("feedback") or "").strip()
    if not feedback:
        raise SelfCheckError(":feedback: is required: a sentence that explains the answer")
    lines = list(content)
    while lines and not lines[-1].strip():
        lines.pop()
    choices, marks = [], []
    while lines and CHOICE.match(lines[-1]):
        match = CHOICE.match(lines.pop())
        choices.insert(0, match["text"].strip())
        marks.insert(0, match["mark"] != " ")
    question = lines
    while question and not question[-1].strip():
        question.pop()
    if not any(line.strip() for line in question):
        raise SelfCheckError("the question is missing: write it as the directive's content")
    if any(line.lstrip().startswith("- [") for line in question):
        raise SelfCheckError(
            "choices must form one list at the end, one `- [ ] text` or `- [x] text` a line"
        )
    spec = Spec(question=question, feedback=feedback)
    if choices:
        if "answer" in options or "tolerance" in options or "digits" in options:
            raise SelfCheckError(
                "a multiple-choice question takes no :answer:, :digits: or :tolerance: "
                "(mark the right choice `- [x]`)"
            )
        if len(choices) < 2:
            raise SelfCheckError("a multiple-choice question needs at least two choices")
        if sum(marks) != 1:
            raise SelfCheckError(f"exactly one choice must be marked `- [x]`, found {sum(marks)}")
        if not all(choices):
            raise SelfCheckError("a choice is empty")
        spec.choices, spec.correct = choices, marks.index(True)
        return spec
    return number_settings(spec, options)


def read_blocks(text: str) -> list[tuple[int, dict[str, str], list[str]]]:
    """Every ``{selfcheck}`` block of a MyST source: (line number, options, content).

    For the tests, which check the chapter sources without building them. A block shown
    inside another fence (an example in a code block) is not a self-check.
    """
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        start, fence, body = i + 1, match["fence"], []
        i += 1
        while i < len(lines) and lines[i].rstrip() != fence:
            body.append(lines[i])
            i += 1
        i += 1
        if match["info"].strip() != "{selfcheck}":
            continue
        options = {}
        while body and body[0].startswith(":"):
            key, _, value = body.pop(0)[1:].partition(":")
            options[key.strip()] = value.strip()
        blocks.append((start, options, body))
    return blocks
