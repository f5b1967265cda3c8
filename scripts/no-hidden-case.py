#!/usr/bin/env python3
"""Searches a student's build of boardkit for every hidden case.

    scripts/no-hidden-case.py STUDENT_BINARY [INSTRUCTOR_BINARY]

For each hidden fixture (`visibility = "hidden"` in fixtures/<game>/), the
needles are its file's text, its name (the file's, as reports call it),
its description and its stdin's bytes
(those no public fixture shares). None may be in the student's binary (the wheel's,
or `cargo install --no-default-features`). Given the instructor's binary
(the default build), the file's text must be in it: the search finds what
it looks for.

The hidden mutants students' own tests are graded by
(`exercises/**/mutations.hidden.toml`) are searched the same way: the file's
text, and each mutant's `breaks` line that no public mutant shares (a
Python mutant may break the same rule in the same words). So are the
built-in packages' hidden parts (`exercises/**/hidden/`), by each file's
text. Exit 1 with each needle found, or missing.
"""
import pathlib
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def stdin_bytes(stdin):
    if isinstance(stdin, str):
        return stdin.encode()
    out = b""
    for part in stdin:
        if isinstance(part, str):
            out += part.encode()
        elif "bytes" in part:
            out += bytes(part["bytes"])
        else:
            out += part["repeat"].encode() * part["times"]
    return out


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    student = pathlib.Path(sys.argv[1]).read_bytes()
    instructor = pathlib.Path(sys.argv[2]).read_bytes() if len(sys.argv) == 3 else None
    fixtures = sorted(p for p in (ROOT / "fixtures").glob("*/*.toml"))
    parsed = [(p, p.read_bytes(), tomllib.loads(p.read_text())) for p in fixtures]
    public = [f for f in parsed if f[2].get("visibility", "public") != "hidden"]
    public_text = b"\n".join(
        stdin_bytes(f[2]["stdin"]) + b"\n" + f[2]["description"].encode() for f in public
    )
    hidden = [f for f in parsed if f[2].get("visibility") == "hidden"]
    problems = []
    for path, text, fixture in hidden:
        name = path.relative_to(ROOT)
        needles = [("its file", text), ("its name", path.stem.encode())]
        description = fixture["description"].encode()
        if description not in public_text:
            needles.append(("its description", description))
        stdin = stdin_bytes(fixture["stdin"])
        if len(stdin) >= 4 and stdin not in public_text:
            needles.append(("its stdin", stdin))
        for what, needle in needles:
            if needle in student:
                problems.append(f"{name}: {what} is in the student's build")
        if instructor is not None and text not in instructor:
            problems.append(f"{name}: its file is not in the instructor's build either")
    mutants = sorted((ROOT / "exercises").glob("**/mutations.hidden.toml"))
    public_breaks = {
        mutation["breaks"]
        for path in (ROOT / "exercises").glob("**/mutations.toml")
        for mutation in tomllib.loads(path.read_text()).get("mutation", [])
    }
    count = 0
    for path in mutants:
        name = path.relative_to(ROOT)
        text = path.read_bytes()
        needles = [("its file", text)]
        for mutation in tomllib.loads(path.read_text())["mutation"]:
            count += 1
            if mutation["breaks"] in public_breaks:
                continue
            needles.append((f"the mutant {mutation['breaks']!r}", mutation["breaks"].encode()))
        for what, needle in needles:
            if needle in student:
                problems.append(f"{name}: {what} is in the student's build")
        if instructor is not None and text not in instructor:
            problems.append(f"{name}: its file is not in the instructor's build either")
    # The built-in packages' hidden parts (`exercises/**/hidden/`): each
    # file's text.
    packaged = sorted(p for p in (ROOT / "exercises").glob("**/hidden/**/*") if p.is_file())
    for path in packaged:
        name = path.relative_to(ROOT)
        text = path.read_bytes()
        if text in student:
            problems.append(f"{name}: its file is in the student's build")
        if instructor is not None and text not in instructor:
            problems.append(f"{name}: its file is not in the instructor's build either")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"ok: none of the {len(hidden)} hidden cases, {count} hidden mutants and {len(packaged)} packages' hidden files is in the student's build")
    return 0


if __name__ == "__main__":
    sys.exit(main())
