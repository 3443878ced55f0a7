"""Every shell example in the README runs as written, from the repository, after `make run` / `make test`.

An example is a command in a fenced ```sh block (lines ending in `\\` continue it),
with the comment lines after it saying what it does:

    # exit N          its exit status (0 when not said)
    # stdout: TEXT    what it prints on stdout; `…` stands for any text in between
    # stderr: TEXT    the same for stderr

Runs of whitespace, and whitespace just inside brackets and braces, do not count,
so `{"a": [1, 2]}` matches indented JSON. An example that cannot run here (it
needs a display, a keyring, the network) has `<!-- readme-test: skip (why) -->`
on the line before its block; the two set-up commands `make run` and `make test`
are not examples. Each example runs under bash in a fresh environment: its own
home and XDG directories, and a PATH without the project's .venv/bin, so `python`
is not the environment's one, as on a fresh machine.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
EXAMPLE_TIMEOUT = 60.0  # seconds; the slowest example takes about 2 s
SETUP = frozenset({"make run", "make test"})
SKIP = re.compile(r"<!--\s*readme-test:\s*skip\s*\((?P<why>[^)]+)\)\s*-->")
DIRECTIVE = re.compile(r"#\s*(?P<key>exit|stdout|stderr)\b:?\s*(?P<value>.*)")


@dataclass
class Example:
    """One command of the README and what it says about it."""

    command: str
    line: int
    exit_code: int = 0
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    skip: str | None = None

    @property
    def name(self) -> str:
        return f"README.md:{self.line}: {self.command.splitlines()[0][:70]}"


def _blocks(text: str) -> list[tuple[int, list[str], str | None]]:
    """The ```sh blocks: (line of their first line, their lines, the skip reason marked before them)."""
    lines = text.splitlines()
    blocks = []
    row = 0
    while row < len(lines):
        if lines[row].strip() == "```sh":
            before = next((lines[r] for r in range(row - 1, -1, -1) if lines[r].strip()), "")
            marker = SKIP.search(before)
            end = next(r for r in range(row + 1, len(lines)) if lines[r].strip() == "```")
            blocks.append((row + 2, lines[row + 1 : end], marker.group("why").strip() if marker else None))
            row = end
        row += 1
    return blocks


def extract(text: str) -> list[Example]:
    """The examples in a README's text, in order."""
    examples: list[Example] = []
    for first_line, lines, skip in _blocks(text):
        current: Example | None = None
        continued = False
        for offset, line in enumerate(lines):
            stripped = line.strip()
            if continued and current is not None:
                current.command += "\n" + line
            elif not stripped:
                continue
            elif stripped.startswith("#"):
                directive = DIRECTIVE.fullmatch(stripped)
                if current is not None and directive is not None:
                    key, value = directive.group("key"), directive.group("value").strip()
                    if key == "exit":
                        current.exit_code = int(value.split()[0])
                    else:
                        getattr(current, key).append(value)
                continue
            else:
                current = Example(line, first_line + offset, skip=skip)
                examples.append(current)
            continued = line.rstrip().endswith("\\")
    return [example for example in examples if re.sub(r"\s+#.*", "", example.command.strip()) not in SETUP]


def _normal(text: str) -> str:
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"([\[{]) | ([\]}])", r"\1\2", text)


def shows(output: str, expected: str) -> bool:
    """Whether `output` holds the pieces of `expected` (split at `…`) in order, whitespace aside."""
    position = 0
    normal = _normal(output)
    for piece in (_normal(part).strip() for part in expected.split("…")):
        found = normal.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    return True


def fresh_environment(tmp_path: Path) -> dict[str, str]:
    """A new user's shell: own home and XDG directories, PATH without the project's environment."""
    hidden = {str(ROOT / ".venv" / "bin"), str(Path(sys.executable).parent)}
    path = os.pathsep.join(
        entry for entry in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep) if entry and entry not in hidden
    )
    env = {
        "PATH": path,
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "TMPDIR": str(tmp_path / "tmp"),
        "HOME": str(tmp_path / "home"),
    }
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"):
        env[name] = str(tmp_path / name.lower())
    for directory in (env["TMPDIR"], env["HOME"], *(env[name] for name in env if name.startswith("XDG_"))):
        Path(directory).mkdir(mode=0o700, exist_ok=True)
    return env


EXAMPLES = extract(README.read_text(encoding="utf-8"))


def test_the_readme_has_runnable_examples_and_few_skipped() -> None:
    assert len(EXAMPLES) >= 3, "the extractor found the README's examples"
    skipped = [example.name for example in EXAMPLES if example.skip]
    assert len(skipped) <= 3, f"most examples must run in the test; skipped: {skipped}"
    for example in EXAMPLES:
        assert "python " not in f" {example.command} ".replace(".venv/bin/python ", ""), (
            f"{example.name}: a bare `python` is not the environment's on a fresh machine"
        )
        assert "$?" not in example.command, f"{example.name}: say `# exit N` instead of echoing the status"


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "mcp-catalog-inspector").exists(), reason="no .venv: run `make test`")
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.name)
def test_the_example_runs_as_written(example: Example, tmp_path: Path) -> None:
    if example.skip:
        pytest.skip(f"marked in the README: {example.skip}")
    bash = shutil.which("bash")
    assert bash is not None
    proc = subprocess.Popen(
        [bash, "-c", example.command],
        cwd=ROOT,
        env=fresh_environment(tmp_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # so a timeout ends the example's whole process group
    )
    try:
        stdout, stderr = proc.communicate(timeout=EXAMPLE_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        pytest.fail(f"{example.name} ran over {EXAMPLE_TIMEOUT} s\nstdout: {stdout[-2000:]}\nstderr: {stderr[-2000:]}")
    said = f"{example.name}\nstdout: {stdout[-3000:]}\nstderr: {stderr[-3000:]}"
    assert proc.returncode == example.exit_code, f"exit {proc.returncode}, the README says {example.exit_code}: {said}"
    for expected in example.stdout:
        assert shows(stdout, expected), f"stdout does not show {expected!r}: {said}"
    for expected in example.stderr:
        assert shows(stderr, expected), f"stderr does not show {expected!r}: {said}"


SAMPLE = """
```sh
make run    # launch the app
make test
```

<!-- readme-test: skip (needs a display) -->
```sh
.venv/bin/mcp-catalog-inspector --config servers.json
```

```sh
first --flag \\
  --more   # exit 3
# exit 3
# stdout: {"a": … "b": [1, 2]}

second
# stderr: oops
```
"""


def test_the_extractor_reads_commands_continuations_directives_and_skips() -> None:
    examples = extract(SAMPLE)
    assert [(e.command, e.exit_code, e.stdout, e.stderr, e.skip) for e in examples] == [
        (".venv/bin/mcp-catalog-inspector --config servers.json", 0, [], [], "needs a display"),
        ("first --flag \\\n  --more   # exit 3", 3, ['{"a": … "b": [1, 2]}'], [], None),
        ("second", 0, [], ["oops"], None),
    ]
    assert shows('{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}', examples[1].stdout[0])
    assert not shows('{"b": [1, 2], "a": 1}', examples[1].stdout[0]), "the pieces must come in order"
