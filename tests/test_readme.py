"""The README's examples (and those of the documentation's pages) are tests.

Every fenced ``console`` block of ``README.md``, ``docs/index.md``,
``docs/mechanisms.md`` and ``docs/costs.md`` is a terminal session: a line starting with
``$ `` is a command (continued on the next lines while a line ends with a backslash), and
the lines after it
(up to the next command or the end of the block) are what the terminal shows, standard
error merged into standard output; it must equal the expected lines (trailing spaces
ignored). The one normalisation, explicit in the README: an expected last line ``...``
alone stands for the rest of the output, which is not compared (the example shows its
beginning). A block that shows commands only (no output at all) lists commands to run:
each must exit with status 0 and print something.

A few commands run through a real shell (``bash -c``) in an empty temporary directory,
with ``dpsym`` on ``PATH`` running this checkout (``python -m dpsym``): the README's
first, every one that shows an error (the exit status and the one line on standard error
of a real process), the first that reads a noise from a process substitution
(``--noise <(echo '...')``, a pipe), and every command that is not a plain ``dpsym``
command line. Every other ``dpsym`` command runs in this process: the same argument
words (the shell's single-quoted words and, for ``<(echo '...')``, a file holding the
echoed line) handed to :func:`dpsym.cli.main` in an empty temporary directory, its
standard output and standard error collected into one text, and any warning that the
interpreter would print added to it; the bytes are the same as the program's (the
entry point and what only a real process shows are tested in ``tests/cli``), without an
interpreter's start-up for each example.

The quick subset of the suite that the README documents is checked to name existing test
modules.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from dpsym.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The pages whose console blocks are tested.
PAGES = (README, ROOT / "docs" / "index.md", ROOT / "docs" / "mechanisms.md",
         ROOT / "docs" / "costs.md")
#: An expected last line standing for the rest of the output.
ELLIPSIS = "..."
#: A noise read from a process substitution: ``<(echo '<text>')``.
SUBSTITUTION = re.compile(r"<\(echo '([^']*)'\)")
#: A plain ``dpsym`` command line: words of characters the shell leaves alone, or
#: single-quoted words (a process substitution replaced by a file name beforehand).
PLAIN = re.compile(r"dpsym(?: (?:[A-Za-z0-9_.,:=/+-]+|'[^']*'))+")
#: The warnings that the interpreter does not print by default (outside ``__main__``).
SILENT_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                   ResourceWarning)


def console_examples(text: str) -> list[tuple[int, str, list[str] | None]]:
    """The examples of the ``console`` blocks of ``text``: (line number of the command,
    command, expected output lines, or None in a block of commands only)."""
    examples: list[tuple[int, str, list[str] | None]] = []
    block: list[tuple[int, str, list[str]]] | None = None
    continued = False
    for number, line in enumerate(text.splitlines(), start=1):
        if block is None:
            block = [] if line.strip() == "```console" else None
            continue
        if line.strip() == "```":
            quiet = all(not out for _, _, out in block)
            examples += [(n, cmd, None if quiet else out) for n, cmd, out in block]
            block = None
        elif continued:
            n, cmd, out = block[-1]
            block[-1] = (n, cmd + "\n" + line, out)
        elif line.startswith("$ "):
            block.append((number, line[2:], []))
        elif block:
            block[-1][2].append(line)
        else:
            raise AssertionError(f"line {number}: output before any `$ ` command")
        continued = block is not None and bool(block) and line.endswith("\\")
    assert block is None, "a console block is not closed"
    return examples


EXAMPLES = [(f"{page.relative_to(ROOT).as_posix()}:{number}", command, expected)
            for page in PAGES
            for number, command, expected in console_examples(page.read_text(encoding="utf-8"))]


def test_the_readme_has_console_examples() -> None:
    readme = [e for e in EXAMPLES if e[0].startswith("README.md:")]
    assert len(readme) >= 5
    assert all(command.startswith("dpsym ") and expected for _, command, expected in readme)


def in_real_process(where: str, command: str, expected: list[str] | None) -> bool:
    """Whether the example runs as a real ``dpsym`` process through ``bash -c``: the
    README's first, one that shows an error, the first that reads a process substitution,
    and any command that is not a plain ``dpsym`` command line."""
    if where == EXAMPLES[0][0] or PLAIN.fullmatch(SUBSTITUTION.sub("FILE", command)) is None:
        return True
    if expected is not None and any(line.startswith("dpsym: error") for line in expected):
        return True
    first = next(w for w, c, _ in EXAMPLES if SUBSTITUTION.search(c))
    return where == first


def test_the_examples_run_in_both_ways() -> None:
    """The README's first example, an error and a process substitution run as real
    processes; most of the others in this process."""
    real = [where for where, command, expected in EXAMPLES
            if in_real_process(where, command, expected)]
    assert real[0] == EXAMPLES[0][0]
    assert any(SUBSTITUTION.search(c) for w, c, _ in EXAMPLES if w in real)
    assert any(e and e[0].startswith("dpsym: error") for w, _, e in EXAMPLES if w in real)
    assert len(real) < len(EXAMPLES) / 3


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose ``dpsym`` (first on ``PATH``) is this checkout's."""
    bin_dir = tmp_path_factory.mktemp("bin")
    script = bin_dir / "dpsym"
    script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m dpsym "$@"\n')
    script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                      os.environ.get("PYTHONPATH")])),
           "COLUMNS": "100", "LC_ALL": "C.UTF-8"}
    env.pop("DPSYM_DEBUG", None)
    return env


def run_in_shell(command: str, env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """Run ``command`` through ``bash -c``: its exit status and what it printed."""
    proc = subprocess.run(["bash", "-c", command], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)
    return proc.returncode, proc.stdout


def run_in_process(command: str, cwd: Path, monkeypatch: pytest.MonkeyPatch
                   ) -> tuple[int, str]:
    """Run the plain ``dpsym`` command line ``command`` through :func:`dpsym.cli.main` in
    ``cwd``: its exit status and what it printed (standard output and standard error in
    the order written, then the warnings an interpreter would print)."""
    files = iter(range(1000))

    def substitute(match: re.Match[str]) -> str:
        path = cwd / f"substitution-{next(files)}"  # no suffix, as /dev/fd/N
        path.write_text(match.group(1) + "\n", encoding="utf-8")
        return shlex.quote(str(path))

    argv = shlex.split(SUBSTITUTION.sub(substitute, command))
    assert argv[0] == "dpsym"
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("DPSYM_DEBUG", raising=False)
    text = io.StringIO()
    with (warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(text),
          contextlib.redirect_stderr(text)):
        warnings.simplefilter("always")
        code = main(argv[1:])
    for warning in caught:
        if not issubclass(warning.category, SILENT_WARNINGS):
            text.write(warnings.formatwarning(warning.message, warning.category,
                                              warning.filename, warning.lineno))
    return code, text.getvalue()


@pytest.mark.parametrize(("where", "command", "expected"), EXAMPLES,
                         ids=[where for where, _, _ in EXAMPLES])
def test_console_example(where: str, command: str, expected: list[str] | None,
                         shell_env: dict[str, str], tmp_path: Path,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    if in_real_process(where, command, expected):
        code, printed = run_in_shell(command, shell_env, tmp_path)
    else:
        code, printed = run_in_process(command, tmp_path, monkeypatch)
    if expected is None:  # a block of commands only
        assert code == 0 and printed.strip(), (
            f"{where}: `{command}` (exit status {code}) printed:\n{printed}")
        return
    got = [out.rstrip() for out in printed.splitlines()]
    want = [out.rstrip() for out in expected]
    if want and want[-1] == ELLIPSIS:
        want = want[:-1]
        got = got[:len(want)]
    assert got == want, f"{where}: `{command}` (exit status {code}) printed:\n{printed}"


def test_the_quick_subset_names_existing_test_modules() -> None:
    """The README's quick subset (a ``bash`` block after the words "quick subset") names
    test modules that exist."""
    text = README.read_text(encoding="utf-8")
    match = re.search(r"quick subset.*?```bash\n(.*?)```", text, re.DOTALL | re.IGNORECASE)
    assert match, "README.md: no quick subset of the tests"
    command = match.group(1).replace("\\\n", " ")
    assert "python -m pytest" in command
    modules = re.findall(r"tests/\S+\.py", command)
    assert modules
    missing = [m for m in modules if not (ROOT / m).is_file()]
    assert missing == []
