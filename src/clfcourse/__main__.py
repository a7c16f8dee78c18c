"""Command line: ``python -m clfcourse {assign,grade} ...``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .answers import PointsError
from .generate import write_assignments
from .grading import Exposed, NoSandbox, Unbounded, grade_submissions
from .lms import FORMATS
from .runner import Limits
from .sandbox import UNSAFE_FLAG


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m clfcourse",
        description="Otter-grader assignments from the book's chapters, and local grading.",
    )
    parser.add_argument("--root", type=Path, default=Path("."), help="book root (has _toc.yml)")
    commands = parser.add_subparsers(dest="command", required=True)
    assign = commands.add_parser("assign", help="run otter assign on the chapters")
    assign.add_argument("--out", type=Path, help="default: ROOT/_build/assignments")
    assign.add_argument("--jobs", type=int, default=1, help="chapters to assign at the same time")
    assign.add_argument(
        "--no-run-tests", action="store_true", help="skip otter's check of the teacher notebooks"
    )
    assign.add_argument(
        "--hidden",
        type=Path,
        help="folder of your own hidden tests, <exercise label>.py each (see teaching.md)",
    )
    assign.add_argument("chapters", nargs="*", type=Path, help="default: every notebook chapter")
    grade = commands.add_parser("grade", help="grade submitted notebooks with otter run")
    grade.add_argument("submissions", type=Path, help="folder of submitted files (or one file)")
    grade.add_argument("--assignments", type=Path, help="default: ROOT/_build/assignments")
    grade.add_argument("--out", type=Path, help="default: ROOT/_build/grades")
    grade.add_argument(
        "--timeout", type=float, default=300, help="seconds per notebook, otter included"
    )
    grade.add_argument("--jobs", type=int, default=1, help="notebooks to grade at the same time")
    grade.add_argument(
        "--pick",
        action="append",
        default=[],
        metavar="FILE",
        help="of a student's files for one assignment, grade FILE (relative to the folder); "
        "default: the newest",
    )
    grade.add_argument(
        "--text-points",
        type=Path,
        metavar="CSV",
        help="your points for the text answers: a filled-in copy of text-points-template.csv",
    )
    grade.add_argument(
        "--lms",
        choices=FORMATS,
        help="also write the gradebook in that platform's import format (canvas.csv, moodle.csv)",
    )
    defaults = Limits()
    grade.add_argument(
        "--memory-mb", type=int, default=defaults.memory_mb, help="memory per process (MB)"
    )
    grade.add_argument(
        "--cpu-seconds", type=int, default=defaults.cpu_seconds, help="CPU time per process"
    )
    grade.add_argument(
        "--output-mb", type=float, default=defaults.output_mb, help="cell output per notebook"
    )
    grade.add_argument(
        "--total-memory-mb",
        type=int,
        default=defaults.total_memory_mb,
        help="memory of a notebook's processes together, its /tmp included (a cgroup)",
    )
    grade.add_argument(
        "--tmp-mb", type=int, default=defaults.tmp_mb, help="size of a notebook's /tmp"
    )
    grade.add_argument(
        "--home-mb",
        type=int,
        default=defaults.home_mb,
        help="size of a notebook's home (scratch) folder, in memory",
    )
    grade.add_argument(
        UNSAFE_FLAG,
        action="store_true",
        help="when no bubblewrap sandbox can be made, run the students' code with your rights",
    )
    args = parser.parse_args(argv)

    assignments = getattr(args, "assignments", None) or args.root / "_build" / "assignments"
    if args.command == "assign":
        out = args.out or assignments
        earlier = out / "manifest.json"
        used = json.loads(earlier.read_text()).get("hidden") if earlier.exists() else None
        if used and args.hidden is None:  # never fall back to the book's public hidden tests
            print(
                f"{out} was made with your hidden tests from {used}: pass HIDDEN={used} again "
                f"(--hidden), or remove {out} to use the book's own",
                file=sys.stderr,
            )
            return 2
        try:
            manifest = write_assignments(
                args.root, out, args.chapters or None, not args.no_run_tests, args.jobs, args.hidden
            )
        except ValueError as exc:  # a teacher's hidden-test folder that does not fit
            print(exc, file=sys.stderr)
            return 2
        now = {Path(p).stem for p in args.chapters} if args.chapters else None
        kept = []
        for entry in manifest["chapters"]:
            if now is not None and Path(entry["chapter"]).name not in now:
                kept.append(Path(entry["chapter"]).name)
                continue
            graded = [ex for ex in entry["exercises"] if ex["graded"]]
            points = sum(ex["points"] for ex in graded)
            own = sum(ex.get("hidden") == "teacher" for ex in graded)
            mine = f", {own} with your hidden tests" if own else ""
            print(f"{entry['chapter']}: {len(graded)} graded exercises, {points:g} points{mine}")
        if kept:
            print(f"Kept as assigned before: {', '.join(kept)}")
        print(f"Student notebooks, teacher notebooks and autograder zips in {out}")
        return 0
    out = args.out or args.root / "_build" / "grades"
    if not args.submissions.exists():
        print(f"no such submissions folder: {args.submissions}", file=sys.stderr)
        return 2
    if not (assignments / "manifest.json").exists():
        print(f"no {assignments / 'manifest.json'}: run make assignments first", file=sys.stderr)
        return 2
    limits = Limits(
        memory_mb=args.memory_mb,
        cpu_seconds=args.cpu_seconds,
        output_mb=args.output_mb,
        total_memory_mb=args.total_memory_mb,
        tmp_mb=args.tmp_mb,
        home_mb=args.home_mb,
    )
    try:
        _, summary = grade_submissions(
            args.submissions,
            assignments,
            out,
            args.timeout,
            args.jobs,
            limits,
            args.unsafe_no_sandbox,
            args.pick,
            args.text_points,
            args.lms,
        )
    except (NoSandbox, Exposed, Unbounded, PointsError) as exc:
        print(exc, file=sys.stderr)
        return 2
    except Exception as exc:  # the run's folder and summary.txt say it failed; nothing current
        print(
            f"grading failed: {type(exc).__name__}: {exc}; no grades are current", file=sys.stderr
        )
        return 1
    print(summary, end="")
    print(f"Grades in {out / 'grades.csv'} and {out / 'gradebook.csv'}, summary in")
    print(f"{out / 'summary.txt'}; feedback and the teacher's notes in {out / 'latest'}")
    if (out / "answers.html").exists():
        print(f"Text answers in {out / 'answers.html'}; give their points in a copy of")
        print(f"{out / 'text-points-template.csv'} and grade again with TEXT_POINTS=that-copy")
    if args.lms:
        print(f"The gradebook for {args.lms.capitalize()} in {out / f'{args.lms}.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
