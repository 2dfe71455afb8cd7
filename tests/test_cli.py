"""The `weburl` command, run as a separate process the way a user runs it."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

WEBURL = [shutil.which("weburl")] if shutil.which("weburl") else [
    sys.executable, "-c", "import sys; from weburl_nb.cli import main; sys.exit(main())"]


def run(args=(), stdin=b""):
    return subprocess.run([*WEBURL, *args], input=stdin, capture_output=True, timeout=60)


def test_issue_example():
    p = run(stdin="http://ＥＸＡＭＰＬＥ.com/a/../b?q=ü\n".encode())
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode() == "http://example.com/b?q=%C3%BC\n"


def test_invalid_line_keeps_alignment_and_fails():
    p = run(stdin=b"http://a/x/../y\nno scheme here\nhttp://b:99999/\nHTTP://C/\n")
    assert p.returncode == 1
    assert p.stdout.decode().split("\n") == ["http://a/y", "", "", "http://c/", ""]
    err = p.stderr.decode()
    assert "line 2" in err and "line 3" in err and "line 1:" not in err and "line 4" not in err


def test_arguments_with_base_and_charset():
    p = run(["--base", "http://example.com/dir/page.html", "--charset", "euc-jp", "../a b", "?一", "#x"])
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().splitlines() == [
        "http://example.com/a%20b", "http://example.com/dir/page.html?%B0%EC", "http://example.com/dir/page.html#x"]


def test_json_records():
    p = run(["--json"], stdin=b"HTTP://u@H:81/p?q#f\nrelative\n")
    first, second = map(json.loads, p.stdout.decode().splitlines())
    assert first == {"input": "HTTP://u@H:81/p?q#f", "url": "http://u@h:81/p?q#f", "scheme": "http", "user": "u",
                     "password": None, "host": "h", "port": "81", "path": "/p", "query": "q", "fragment": "f",
                     "invalid": False, "hierarchical": True, "reason": None}
    assert second["url"] is None and second["invalid"] is True
    assert second["reason"] == "no scheme, and no base to resolve against (resolution step 4)"
    assert p.returncode == 1


def test_bytes_that_are_not_utf8_do_not_stop_the_run():
    p = run(stdin=b"http://a/\xff\xfe\nhttp://b/\r\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().splitlines() == ["http://a/%EF%BF%BD%EF%BF%BD", "http://b/"]


def test_no_trailing_newline_and_empty_input():
    assert run(stdin=b"http://a").stdout == b"http://a/\n"
    assert run(stdin=b"").stdout == b""


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version(flag):
    p = run([flag])
    assert p.returncode == 0 and b"weburl" in p.stdout


def test_jobs_keep_order_messages_and_status():
    data = b"".join(b"HTTP://h%d/a/../b\nbad %d\n\xff\n" % (i, i) for i in range(20_000))
    one, two = run(["-j", "1"], stdin=data), run(["-j", "2"], stdin=data)
    assert one.returncode == two.returncode == 1
    assert two.stdout == one.stdout and two.stderr == one.stderr
    assert one.stdout.count(b"\n") == 60_000
    assert b"line 59999: invalid URL 'bad 19999': no scheme" in one.stderr


def test_jobs_all_cores_and_bad_count():
    assert run(["-j", "0", "HTTP://A/"]).stdout == b"http://a/\n"
    bad = run(["-j", "-1", "http://a/"])
    assert bad.returncode == 2 and b"-j" in bad.stderr


def test_progress_on_request_and_not_on_a_pipe():
    data = b"http://a/\n" * 1000
    shown = run(["--progress"], stdin=data)
    assert shown.returncode == 0 and shown.stderr.endswith(b"lines/s\x1b[K\n")
    assert b"1,000 lines" in shown.stderr
    assert run(stdin=data).stderr == b""                 # standard error is a pipe here


def test_progress_off_on_a_terminal():
    import os, pty
    master, slave = pty.openpty()
    try:
        p = subprocess.run([*WEBURL, "--no-progress", "--progress", "--no-progress"], input=b"x\n",
                           stdout=subprocess.PIPE, stderr=slave, timeout=60)
        os.close(slave)
        slave = None
        err = os.read(master, 4096)
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)
    assert p.returncode == 1 and b"line 1" in err and b"lines/s" not in err


def test_streams_each_line_before_the_input_ends():
    p = subprocess.Popen([*WEBURL], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        p.stdin.write(b"HTTP://A/\n")
        p.stdin.flush()
        assert p.stdout.readline() == b"http://a/\n"     # answered while stdin is still open
    finally:
        p.stdin.close()
        p.wait(timeout=60)


def test_browser_option_and_unknown_browser():
    r = run(["--browser", "IE", "http://A/"])
    assert (r.returncode, r.stdout) == (0, b"http://a/\n")
    r = run(["--browser", "mosaic", "http://a/"])
    assert r.returncode == 2 and b"invalid choice" in r.stderr


def test_compare_table_and_json():
    r = run(["--compare", "http://\uff21.example/", "--base", "http://b/"])
    text = r.stdout.decode()
    assert r.returncode == 0 and "THIS (the spec)" in text and "http://a.example/" in text
    r = run(["--compare", "--json"], stdin="http://a/\nx\n".encode())
    records = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert [rec["input"] for rec in records] == ["http://a/", "x"]
    assert records[1]["results"]["this"]["invalid"] is True
def test_unknown_charset_is_a_usage_error():
    "A --charset naming no encoding stops before any work: exit status 2 and a message naming it."
    bad = run(["--charset", "bogus", "http://h/?q"], stdin=b"http://h/\n")
    assert bad.returncode == 2 and bad.stdout == b""
    assert b"unknown charset label: 'bogus'" in bad.stderr
    assert run(["--charset", "utf-7", "http://h/?\u4e00"]).stdout == b"http://h/?%E4%B8%80\n"


# `weburl ARGS` under the start method named by the first argument.
UNDER_START_METHOD = ("import multiprocessing, sys; multiprocessing.set_start_method(sys.argv[1]); "
                      "from weburl_nb.cli import main; sys.exit(main(sys.argv[2:]))")


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_jobs_on_a_regular_file_read_by_the_workers(tmp_path, method):
    "Standard input a file: the relay's processes read it in turn, under every start method."
    data = b"#\n" + b"".join(b"HTTP://h%d/a/../b\n" % i if i % 997 else b"bad %d\xff\n" % i
                             for i in range(150_000))       # about 3 MB: several blocks
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    with open(path, "rb") as f:
        f.seek(2)                                   # the command starts after the first line
        two = subprocess.run([sys.executable, "-c", UNDER_START_METHOD, method, "-j", "2"], stdin=f,
                             capture_output=True, timeout=120)
        assert os.lseek(f.fileno(), 0, os.SEEK_CUR) == len(data)      # read to the end, as -j 1 does
    one = run(["-j", "1"], stdin=data[2:])
    assert two.returncode == one.returncode == 1
    assert two.stdout == one.stdout and two.stderr == one.stderr
    assert two.stdout.count(b"\n") == 150_000 and two.stderr.count(b"\n") == 151


def test_jobs_relay_through_a_pipe_under_every_start_method():
    "Standard input a pipe: the relay's processes read it in turn, the line cut by a read carried."
    data = b"".join(b"HTTP://h%d/a/../b\n" % i if i % 991 else b"bad %d\n" % i for i in range(120_000))
    one = run(["-j", "1"], stdin=data)
    for method in ("fork", "spawn", "forkserver"):
        three = subprocess.run([sys.executable, "-c", UNDER_START_METHOD, method, "-j", "3"], input=data,
                               capture_output=True, timeout=120)
        assert (three.returncode, three.stdout, three.stderr) == (one.returncode, one.stdout, one.stderr)


def test_jobs_stop_when_the_reader_goes_away():
    "`weburl -j 2 < big | head -1`: every process stops, quietly, long before the input ends."
    data = b"http://a/\n" * 3_000_000
    p = subprocess.Popen([*WEBURL, "-j", "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    import threading
    try:
        writer = threading.Thread(target=_feed, args=(p.stdin, data), daemon=True)
        writer.start()
        assert p.stdout.readline() == b"http://a/\n"
        p.stdout.close()
        assert p.wait(timeout=60) in (0, 1)
        assert b"Traceback" not in p.stderr.read()
    finally:
        p.kill()


def _feed(pipe, data):
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, ValueError):
        pass


def test_jobs_a_failing_worker_stops_the_relay():
    "A worker that fails stops the others: exit status 2, a message, and no wait for ever."
    code = ("import multiprocessing, sys; from weburl_nb import cli; real = cli.convert_block\n"
            "multiprocessing.set_start_method('fork')     # the workers inherit the patch\n"
            "def convert(block, args):\n"
            "    if multiprocessing.current_process().name != 'MainProcess': raise MemoryError('test')\n"
            "    return real(block, args)\n"
            "cli.convert_block = convert; sys.exit(cli.main(sys.argv[1:]))")
    data = b"http://a/\n" * 400_000
    p = subprocess.run([sys.executable, "-c", code, "-j", "2"], input=data, capture_output=True,
                       timeout=120)
    assert p.returncode == 2
    assert b"MemoryError: test" in p.stderr and b"a worker process failed" in p.stderr


def terminal_lines(text: bytes) -> list:
    "The lines a terminal shows for *text*: `\\r` returns to column 0, `ESC [K` clears to the end."
    shown = []
    for line in text.split(b"\n"):
        cells, col = bytearray(), 0
        for token in re.split(rb"(\r|\x1b\[K)", line):
            if token == b"\r":
                col = 0
            elif token == b"\x1b[K":
                del cells[col:]
            else:
                cells[col:col + len(token)] = token
                col += len(token)
        shown.append(bytes(cells))
    return shown


def test_terminal_lines_models_carriage_return_and_erase():
    assert terminal_lines(b"\rweburl: 0 lines\x1b[K\r\x1b[Kweburl: line 2: x\nend") == [
        b"weburl: line 2: x", b"end"]
    assert terminal_lines(b"abcdef\rxy") == [b"xycdef"]      # no erase: the old tail stays


def test_jobs_relay_progress_and_messages_share_standard_error():
    "Under the relay the count at the end covers every line, and each message stands on its own line."
    data = b"http://a/\nbad\n" * 60_000
    p = run(["-j", "2", "--progress"], stdin=data)
    assert p.returncode == 1 and p.stdout.count(b"\n") == 120_000
    last = p.stderr.rsplit(b"\r", 1)[1]
    assert last.startswith(b"weburl: 120,000 lines in ") and last.endswith(b"lines/s\x1b[K\n")
    # What a terminal shows: the progress line may be redrawn (`\r`) before a message clears it
    # (`\x1b[K`); each message must then stand alone on its line, none cut into by a count.
    messages = [line for line in terminal_lines(p.stderr) if b"invalid URL" in line]
    assert len(messages) == 60_000
    assert all(m.startswith(b"weburl: line ") and b"lines/s" not in m for m in messages)


@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_jobs_relay_progress_count_when_a_worker_writes_every_block(method):
    """The shape that lost the count: an input of one block, often read and written by the worker
    while the main process writes nothing. Run several times, each run must end with the count."""
    data = b"http://a/\nbad\n" * 500
    for _ in range(6):
        p = subprocess.run([sys.executable, "-c", UNDER_START_METHOD, method, "-j", "2", "--progress"],
                           input=data, capture_output=True, timeout=60)
        assert p.returncode == 1 and p.stdout.count(b"\n") == 1000
        last = p.stderr.rsplit(b"\r", 1)[1]
        assert last.startswith(b"weburl: 1,000 lines in ") and last.endswith(b"lines/s\x1b[K\n")


@pytest.mark.parametrize("base, why", [
    ("a", b"invalid URL 'a': no scheme"),
    ("http://h:99999/", b"invalid URL 'http://h:99999/': port 99999 is above 65535")])
def test_bad_base_is_one_usage_error_before_any_input(base, why):
    "A --base that is no valid URL: one message naming --base, exit status 2, nothing read or written."
    bad = run(["--base", base], stdin=b"b\nc\n" * 1000)
    assert bad.returncode == 2 and bad.stdout == b""
    lines = [line for line in bad.stderr.splitlines() if b"error" in line]
    assert len(lines) == 1 and lines[0].startswith(b"weburl: error: argument --base: " + why)
    assert run(["--base", base, "http://ok/"]).returncode == 2            # arguments as well


def test_site_and_site_key_in_processes():
    "`--site` and `--key=site` through the relay (`-j 2`): same lines as one process, in order."
    pytest.importorskip("publicsuffixlist")
    lines = b"".join(b"http://www%d.example.co.uk/\nhttp://10.0.0.%d/\nbad %d\n" % (i, i % 250, i)
                     for i in range(30_000))
    one, two = run(["--site"], lines), run(["-j", "2", "--site"], lines)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert one.stdout.split(b"\n")[:4] == [b"example.co.uk", b"", b"", b"example.co.uk"]
    assert one.stderr.count(b"\n") == 30_000                      # the `bad` lines alone
    keyed = run(["-j", "2", "--key=site"], b"http://10.0.0.1/\nhttp://a.blogspot.com/x\n")
    assert keyed.stdout == b"10.0.0.1\na.blogspot.com\n"
