"""The small test chapters of the coursework tests, in one place.

``OVER`` is built like the book's chapters (given data ``m``, an answer ``over`` whose hidden
test compares it with the library, a message on the hidden assert): the grader's own tests
grade it, because a kernel runs it in a second where a book chapter takes ten. ``total_chapter``
is the smallest chapter with one exercise, in the variants the markup tests need;
``FUNCTION`` one whose answer is a function its test calls.
"""

from __future__ import annotations

HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# Mini
"""

#: The message of ``OVER``'s hidden assert (for the teacher's notes, never the student's).
OVER_HIDDEN_MESSAGE = "over = bias(m) - prevalence(m), class by class"

OVER = f"""{HEADER}
```{{code-cell}} ipython3
import numpy as np
from clfmetrics import bias, prevalence
```

```{{code-cell}} ipython3
m = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
```

```{{exercise}}
:label: ex-mini-over

Compute how much more each class of `m` is predicted than it is true, as `over`.
```

````{{solution-start}} ex-mini-over
:class: dropdown
````

Bias minus prevalence.

```{{code-cell}} ipython3
:tags: [solution]

over = bias(m) - prevalence(m)
```

````{{solution-end}}
````

```{{code-cell}} ipython3
:tags: [check, hide-input]
:points: 2

assert np.shape(over) == (3,), "one entry per class"
```

```{{code-cell}} ipython3
:tags: [hidden-check, remove-cell]

assert np.allclose(over, bias(m) - prevalence(m)), "{OVER_HIDDEN_MESSAGE}"
assert abs(float(np.sum(over))) < 1e-9
```
"""

#: The stem ``OVER`` is assigned under.
OVER_STEM = "mini"

#: A chapter whose answer is a function the test calls (``total_of``): its scoring runs
#: student code again, in the sandbox's worker, on the chapter's given data ``m``.
FUNCTION = f"""{HEADER}
```{{code-cell}} ipython3
m = [[3, 1], [1, 5]]
```

```{{exercise}}
:label: ex-mini-total-of

Write `total_of(m)`, the number of items a confusion matrix `m` counts.
```

````{{solution-start}} ex-mini-total-of
:class: dropdown
````

Add every entry.

```{{code-cell}} ipython3
:tags: [solution]

def total_of(m):
    return sum(map(sum, m))
```

````{{solution-end}}
````

```{{code-cell}} ipython3
:tags: [check, hide-input]
:points: 2

assert callable(total_of), "total_of is a function"
```

```{{code-cell}} ipython3
:tags: [hidden-check, remove-cell]

assert total_of(m) == 10, "every item of m, counted once"
```
"""

#: The stem ``FUNCTION`` is assigned under.
FUNCTION_STEM = "mini-function"

_WHY = """
```{exercise}
:label: ex-mini-why

Why is `total` 10?
```

```{solution} ex-mini-why
Because.
```
"""


def total_chapter(task: str = "", hidden: str | None = None, why: bool = False) -> str:
    """A chapter with one exercise ``ex-mini-total`` (3 points): count the items of ``m``.

    ``task`` is appended to the exercise's text, ``hidden`` is the source of a hidden-check
    cell (none by default), ``why`` adds a text exercise ``ex-mini-why``.
    """
    text = f"""{HEADER}
```{{code-cell}} ipython3
m = [[3, 1], [1, 5]]
```

```{{exercise}}
:label: ex-mini-total

Count the items of `m` as `total`{task}.
```

````{{solution-start}} ex-mini-total
:class: dropdown
````

Add every entry.

```{{code-cell}} ipython3
:tags: [solution]

total = sum(map(sum, m))
```

````{{solution-end}}
````

```{{code-cell}} ipython3
:tags: [check, hide-input]
:points: 3

assert isinstance(total, int), "total is a count"
```
"""
    if hidden is not None:
        tags = ":tags: [hidden-check, remove-cell]"
        text += f"\n```{{code-cell}} ipython3\n{tags}\n\n{hidden}\n```\n"
    return text + (_WHY if why else "")


#: ``OVER`` with two text exercises after it, in one markdown cell (no code cell between them:
#: each answer cell must still follow its own exercise), the first with a rubric.
TEXT = (
    OVER
    + """
```{exercise}
:label: ex-mini-why-over

Why does `over` sum to zero?
```

```{solution} ex-mini-why-over
:class: dropdown

Bias and prevalence each sum to one.

:::{admonition} Rubric
- 1 point: the predicted shares (bias) sum to one.
- 1 point: the true shares (prevalence) sum to one,
  so their difference sums to zero.
:::
```

```{exercise}
:label: ex-mini-which

Which class of `m` is predicted more often than it is true, by the most?
```

```{solution} ex-mini-which
:class: dropdown

The second.
```
"""
)

#: The stem ``TEXT`` is assigned under.
TEXT_STEM = "mini-text"
