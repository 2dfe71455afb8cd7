"""The `weburl` command, run as a separate process the way a user runs it."""
import json
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
                     "invalid": False, "hierarchical": True}
    assert second["url"] is None and second["invalid"] is True
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
