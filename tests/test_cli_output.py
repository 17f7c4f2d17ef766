"""``obsim run --out``: checked before the run, written whole, and a finished
run never lost to an output error. Every failure path is exercised: a file in
the way, a directory of someone else's files, a mount point, a read-only
location (``/sys``; a read-only tmpfs where mounting is allowed; a permission
error injected during the write, since tests run as root), a full disk (too
little free space before the run; a 96 kB tmpfs that fills during the write;
``ENOSPC`` injected during the write) and a fallback that fails too."""

from __future__ import annotations

import errno
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator, List

import pyarrow.parquet as pq
import pytest

import obsim
from conftest import small_scenario
from fake import FakeCore
from obsim import api, cli, files, results

NOSPC = "No space left on device"


@pytest.fixture
def core(monkeypatch: pytest.MonkeyPatch) -> FakeCore:
    """A fake engine whose calls are recorded (no call: nothing was simulated)."""
    fake = FakeCore()
    monkeypatch.setattr(api._core, "run", fake)
    return fake


@pytest.fixture
def scen(write_scenario: Callable[..., Path]) -> Path:
    return write_scenario('name = "t"\n')


@pytest.fixture
def fallback_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The system temporary directory, redirected for the test."""
    root = tmp_path / "systmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return root


def _one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _leftovers(parent: Path, name: str) -> List[str]:
    """Staging or moved-aside directories of ``name`` left in ``parent``."""
    return sorted(
        p.name for p in parent.iterdir() if p.name.startswith((f"{name}.tmp-", f"{name}.old-"))
    )


def _fail_under(
    monkeypatch: pytest.MonkeyPatch, target: Path, module: Any, attr: str, error: OSError
) -> None:
    """Make ``module.attr`` (a writer taking the path first) raise ``error``
    for paths under ``target`` or its staging directory, and work elsewhere."""
    real = getattr(module, attr)

    def writer(*args: Any, **kwargs: Any) -> Any:
        if str(args[1] if attr == "write_table" else args[0]).startswith(str(target)):
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(module, attr, writer)


def _same_results(a: Path, b: Path) -> None:
    """Same files, byte-identical except timing.json."""
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    assert "meta.json" in names and "flows.parquet" in names
    for name in names:
        if name != "timing.json":
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


# ---- checked before the run: exit 2, nothing simulated, nothing written ----


def test_file_in_the_way(
    core: FakeCore, scen: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out"
    target.write_text("mine")
    assert cli.main(["run", str(scen), "--out", str(target)]) == cli.EXIT_CONFIG_ERROR
    line = _one_line(capsys.readouterr().err)
    assert line == (
        f"error: --out {target} is a file; give a directory (a new one, or one with earlier results)"
    )
    assert core.calls == []
    assert target.read_text() == "mine"
    # Under a file: the file is named.
    assert cli.main(["run", str(scen), "--out", str(target / "sub")]) == cli.EXIT_CONFIG_ERROR
    assert f"{target} is a file, not a directory" in _one_line(capsys.readouterr().err)
    assert core.calls == [] and _leftovers(tmp_path, "out") == []


def test_directory_of_other_files_is_not_replaced(
    core: FakeCore, scen: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    assert cli.main(["run", str(scen), "--out", str(target)]) == cli.EXIT_CONFIG_ERROR
    line = _one_line(capsys.readouterr().err)
    assert f"--out {target} holds files that are not obsim results (notes.txt)" in line
    assert core.calls == []
    assert [p.name for p in target.iterdir()] == ["notes.txt"]


def test_read_only_location_real() -> None:
    """``/sys`` refuses a new directory even to root: found before the run,
    in a subprocess running the real engine."""
    scenario = Path(__file__).resolve().parent.parent / "scenarios" / "dumbbell.toml"
    p = subprocess.run(
        [sys.executable, "-m", "obsim", "run", str(scenario), "--out", "/sys/obsim-out"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 2, p.stderr
    line = _one_line(p.stderr)
    assert line.startswith("error: --out /sys/obsim-out: cannot write in /sys (")
    assert p.stdout == ""  # no summary: nothing was simulated
    assert not Path("/sys/obsim-out").exists()


def test_read_only_location_injected(
    monkeypatch: pytest.MonkeyPatch,
    core: FakeCore,
    scen: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A location where no directory can be created (as for a read-only
    filesystem), injected into the probe: exit 2 before the run."""
    real_mkdir = Path.mkdir

    def mkdir(self: Path, *args: Any, **kwargs: Any) -> None:
        if self.parent == tmp_path:
            raise OSError(errno.EROFS, "Read-only file system")
        real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    target = tmp_path / "out"
    assert cli.main(["run", str(scen), "--out", str(target)]) == cli.EXIT_CONFIG_ERROR
    assert _one_line(capsys.readouterr().err) == (
        f"error: --out {target}: cannot write in {tmp_path} (Read-only file system)"
    )
    assert core.calls == [] and not target.exists()


def test_too_little_free_space(
    monkeypatch: pytest.MonkeyPatch,
    core: FakeCore,
    scen: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage._replace(free=4096))
    target = tmp_path / "out"
    assert cli.main(["run", str(scen), "--out", str(target)]) == cli.EXIT_CONFIG_ERROR
    assert _one_line(capsys.readouterr().err) == (
        f"error: --out {target}: only 4 kB free on its filesystem; the results need about 1.0 MB"
    )
    assert core.calls == [] and not target.exists()


def test_free_space_estimated_from_the_trace(
    monkeypatch: pytest.MonkeyPatch,
    core: FakeCore,
    write_scenario: Callable[..., Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A long trace sampled often needs more than the floor: 2 flows every
    1 ms for 1000 s is 2,000,000 rows, about 16 MB."""
    text = small_scenario().replace('duration = "5 s"', 'duration = "1000 s"')
    text = text.replace('interval = "100 ms"', 'interval = "1 ms"')
    scen = write_scenario(text)
    need = results.estimate_output_bytes(obsim.parse(str(scen)))
    assert need == results.MIN_FREE_BYTES + 2_000_000 * 8
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage._replace(free=need - 1))
    target = tmp_path / "out"
    assert cli.main(["run", str(scen), "--out", str(target)]) == cli.EXIT_CONFIG_ERROR
    assert _one_line(capsys.readouterr().err).endswith(
        "MB free on its filesystem; the results need about 16.3 MB"
    )
    assert core.calls == [] and not target.exists()
    # Without a trace, the floor.
    assert results.estimate_output_bytes(obsim.parse(small_scenario().replace("cwnd = true", ""))) == (
        results.MIN_FREE_BYTES
    )


# ---- failing during the write: exit 3, results kept elsewhere ---------------


def _kept_in(line: str, out: Path, reason: str) -> Path:
    prefix = (
        f"error: the run finished but its results could not be written to {out} ({reason}); "
        "they were written to "
    )
    assert line.startswith(prefix) and line.endswith(" instead"), line
    return Path(line[len(prefix) : -len(" instead")])


@pytest.mark.parametrize(
    "writer, error, reason",
    [
        # The disk fills while meta.json is written (the Parquet files are in).
        (("files", "atomic_write_bytes"), OSError(errno.ENOSPC, "No space left on device"), NOSPC),
        # The permissions change between the check and the write.
        (("pq", "write_table"), PermissionError(errno.EACCES, "Permission denied"), "Permission denied"),
    ],
    ids=["full-disk", "permission-lost"],
)
def test_write_failure_keeps_results(
    monkeypatch: pytest.MonkeyPatch,
    core: FakeCore,
    scen: Path,
    tmp_path: Path,
    fallback_root: Path,
    capsys: pytest.CaptureFixture[str],
    writer: Any,
    error: OSError,
    reason: str,
) -> None:
    target = tmp_path / "out"
    module = {"files": files, "pq": pq}[writer[0]]
    _fail_under(monkeypatch, target, module, writer[1], error)
    argv = ["run", str(scen), "--seed", "3", "--out", str(target), "--quiet"]
    assert cli.main(argv) == cli.EXIT_OUTPUT_ERROR
    assert len(core.calls) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    kept = _kept_in(_one_line(captured.err), target, reason)
    assert kept.parent == fallback_root and kept.name.startswith("obsim-results-")
    # Nothing half-written at --out, no staging left behind.
    assert not target.exists()
    assert _leftovers(tmp_path, "out") == []
    # The kept results are those a good write gives.
    monkeypatch.undo()
    monkeypatch.setattr(api._core, "run", FakeCore())
    good = tmp_path / "good"
    assert cli.main(["run", str(scen), "--seed", "3", "--out", str(good), "--quiet"]) == 0
    _same_results(kept, good)


def test_write_failure_over_earlier_results_keeps_them(
    monkeypatch: pytest.MonkeyPatch, core: FakeCore, scen: Path, tmp_path: Path, fallback_root: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A directory with an earlier run's results is replaced only by a
    complete new set: a failed write leaves the earlier results as they were."""
    target = tmp_path / "out"
    assert cli.main(["run", str(scen), "--seed", "1", "--out", str(target), "-q"]) == 0
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    _fail_under(monkeypatch, target, files, "atomic_write_bytes", OSError(errno.ENOSPC, NOSPC))
    assert cli.main(["run", str(scen), "--seed", "2", "--out", str(target), "-q"]) == cli.EXIT_OUTPUT_ERROR
    kept = _kept_in(_one_line(capsys.readouterr().err), target, "No space left on device")
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    assert json.loads((kept / "meta.json").read_text())["seed"] == 2
    assert _leftovers(tmp_path, "out") == []


def test_fallback_failing_too_says_lost(
    monkeypatch: pytest.MonkeyPatch, core: FakeCore, scen: Path, tmp_path: Path, fallback_root: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    _fail_under(monkeypatch, tmp_path, pq, "write_table", OSError(errno.ENOSPC, "No space left on device"))
    target = tmp_path / "out"
    assert cli.main(["run", str(scen), "--out", str(target), "-q"]) == cli.EXIT_OUTPUT_ERROR
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(
        f"error: the run finished but its results could not be written to {target} (No space left on device) "
        f"nor to a fallback directory ({fallback_root}/obsim-results-"
    )
    assert line.endswith("; they are lost")
    assert not target.exists()
    assert list(fallback_root.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("obsim-results-")) == []


# ---- real small and read-only filesystems (where mounting is allowed) --------


@pytest.fixture
def mount_tmpfs(tmp_path: Path) -> Iterator[Callable[..., Path]]:
    """Mount a tmpfs (``mount -t tmpfs -o OPTIONS``) on a fresh directory;
    skip the test where mounting is not allowed (not root, no privilege)."""
    mounted: List[Path] = []

    def mount(options: str) -> Path:
        point = tmp_path / f"mnt{len(mounted)}"
        point.mkdir()
        p = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True, text=True
        )
        if p.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {p.stderr.strip()}")
        mounted.append(point)
        return point

    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    yield mount
    for point in mounted:
        subprocess.run(["umount", str(point)], check=True)


def test_full_disk_real(
    monkeypatch: pytest.MonkeyPatch,
    mount_tmpfs: Callable[..., Path],
    write_scenario: Callable[..., Path],
    tmp_path: Path,
    fallback_root: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A 96 kB filesystem and a run (real engine) whose trace of every
    change (not estimated before the run) takes about 120 kB: the disk fills
    during the write, the results go to the fallback, nothing is left on the
    small disk."""
    small = mount_tmpfs("size=96k")
    monkeypatch.setattr(results, "MIN_FREE_BYTES", 16 << 10)
    text = small_scenario().replace('interval = "100 ms"\n', "")
    text = text.replace("cwnd = true", "cwnd = true\nseq = true")
    scen = write_scenario(text)
    target = small / "out"
    assert cli.main(["run", str(scen), "--out", str(target), "-q"]) == cli.EXIT_OUTPUT_ERROR
    kept = _kept_in(_one_line(capsys.readouterr().err), target, NOSPC)
    assert kept.parent == fallback_root
    assert list(small.iterdir()) == []
    assert pq.read_table(kept / "trace.parquet").num_rows > 1000
    assert json.loads((kept / "meta.json").read_text())["tables"]["trace"]["rows"] > 1000


def test_read_only_filesystem_real(
    mount_tmpfs: Callable[..., Path], core: FakeCore, scen: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ro = mount_tmpfs("ro,size=1m")
    target = ro / "out"
    assert cli.main(["run", str(scen), "--out", str(target)]) == cli.EXIT_CONFIG_ERROR
    assert _one_line(capsys.readouterr().err) == (
        f"error: --out {target}: cannot write in {ro} (Read-only file system)"
    )
    assert core.calls == []


def test_mount_point_refused(
    mount_tmpfs: Callable[..., Path], core: FakeCore, scen: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    point = mount_tmpfs("size=1m")
    assert cli.main(["run", str(scen), "--out", str(point)]) == cli.EXIT_CONFIG_ERROR
    assert _one_line(capsys.readouterr().err) == (
        f"error: --out {point} is a mount point; give a directory inside it"
    )
    assert core.calls == []


# ---- a good write ------------------------------------------------------------


def test_rerun_replaces_earlier_results_whole(
    monkeypatch: pytest.MonkeyPatch, scen: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "a" / "b" / "out"  # parents are created
    monkeypatch.setattr(api._core, "run", FakeCore(trace_rows=3))
    assert cli.main(["run", str(scen), "--out", str(target)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"results written to {target}"
    assert (target / "trace.parquet").is_file()
    monkeypatch.setattr(api._core, "run", FakeCore(trace_rows=0))
    assert cli.main(["run", str(scen), "--out", str(target), "-q"]) == 0
    assert not (target / "trace.parquet").exists()  # this run's files only
    assert _leftovers(target.parent, "out") == []
    assert results.output_problem(target) is None
