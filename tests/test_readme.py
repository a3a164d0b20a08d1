"""The README's examples (and those of the documentation's pages) are tests.

Every fenced ``console`` block of ``README.md``, ``docs/index.md``,
``docs/mechanisms.md`` and ``docs/costs.md`` is a terminal session: a line starting with
``$ `` is a command (continued on the next lines while a line ends with a backslash), and
the lines after it
(up to the next command or the end of the block) are what the terminal shows. Each
command runs through a real shell (``bash -c``, standard error merged into standard
output as on a terminal) in an empty temporary directory, with ``dpsym`` on ``PATH``
running this checkout (``python -m dpsym``); what it prints must equal the expected
lines (trailing spaces ignored). The one normalisation, explicit in the README: an
expected last line ``...`` alone stands for the rest of the output, which is not
compared (the example shows its beginning). A block that shows commands only (no output
at all) lists commands to run: each must exit with status 0 and print something.

The quick subset of the suite that the README documents is checked to name existing test
modules.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The pages whose console blocks are tested.
PAGES = (README, ROOT / "docs" / "index.md", ROOT / "docs" / "mechanisms.md",
         ROOT / "docs" / "costs.md")
#: An expected last line standing for the rest of the output.
ELLIPSIS = "..."


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


@pytest.mark.parametrize(("where", "command", "expected"), EXAMPLES,
                         ids=[where for where, _, _ in EXAMPLES])
def test_console_example(where: str, command: str, expected: list[str] | None,
                         shell_env: dict[str, str], tmp_path: Path) -> None:
    proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=shell_env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)
    if expected is None:  # a block of commands only
        assert proc.returncode == 0 and proc.stdout.strip(), (
            f"{where}: `{command}` (exit status {proc.returncode}) printed:\n{proc.stdout}")
        return
    got = [out.rstrip() for out in proc.stdout.splitlines()]
    want = [out.rstrip() for out in expected]
    if want and want[-1] == ELLIPSIS:
        want = want[:-1]
        got = got[:len(want)]
    assert got == want, (f"{where}: `{command}` (exit status {proc.returncode}) "
                         f"printed:\n{proc.stdout}")


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
