"""TAP output for the test scripts: one numbered line a check, the plan at
the end, and the exit status meson reads.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
    from tap import check, finish

    check("akc --version prints the version", out == b"0.1\\n", out)
    sys.exit(finish())

The lines go to standard output, or to the file descriptor named by
AKC_TAP_FD when it is set (tests/ui/with-private-bus sets it, so that what
the programs a test starts print does not reach meson as TAP).
"""

import os
import sys

count = 0
failed = 0
out = os.fdopen(int(os.environ["AKC_TAP_FD"]), "w") if "AKC_TAP_FD" in os.environ else sys.stdout


def check(name, condition, detail=""):
    """Prints `ok N - name`, or `not ok N - name` and @detail as comment
    lines (at most 30 of them); returns whether @condition held."""
    global count, failed
    count += 1
    print(f"{'ok' if condition else 'not ok'} {count} - {name}", file=out, flush=True)
    if not condition:
        failed += 1
        for line in str(detail).splitlines()[:30]:
            print(f"# {line}", file=out)
        out.flush()
    return bool(condition)


def skip_all(reason):
    """Prints the plan of a script that runs no check, and why; returns the
    exit status meson reads as a skip."""
    print(f"1..0 # SKIP {reason}", file=out, flush=True)
    return 0


def finish():
    """Prints the plan; the exit status: 1 when a check failed or none ran."""
    print(f"1..{count}", file=out, flush=True)
    return 1 if failed or count == 0 else 0
