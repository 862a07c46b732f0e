"""TAP output for the test scripts: one numbered line a check, the plan at
the end, and the exit status meson reads.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
    from tap import check, finish

    check("akc --version prints the version", out == b"0.1\\n", out)
    sys.exit(finish())
"""

import sys

count = 0
failed = 0


def check(name, condition, detail=""):
    """Prints `ok N - name`, or `not ok N - name` and @detail as comment
    lines (at most 30 of them); returns whether @condition held."""
    global count, failed
    count += 1
    print(f"{'ok' if condition else 'not ok'} {count} - {name}", flush=True)
    if not condition:
        failed += 1
        for line in str(detail).splitlines()[:30]:
            print(f"# {line}")
        sys.stdout.flush()
    return bool(condition)


def finish():
    """Prints the plan; the exit status: 1 when a check failed or none ran."""
    print(f"1..{count}", flush=True)
    return 1 if failed or count == 0 else 0
