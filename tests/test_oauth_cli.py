"""Signing in from the command line, against a real authorization server and protected MCP server on 127.0.0.1.

The CLI plays the browser with `--oauth-open fetch`; the fixture approves without a
person. Tokens go to a keyring of the tests' own (a JSON file), so a test can see
what was kept there, and that it was kept nowhere else.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx2
import pytest

from tests.helpers import ROOT
from tests.oauth_helpers import cli_env, files_under, kept, oauth_server, run_cli

FETCH = ("--oauth-open", "fetch")


def _document(out: subprocess.CompletedProcess[str]) -> dict:  # type: ignore[type-arg]
    return json.loads(out.stdout)


def test_the_cli_signs_in_and_the_token_is_kept_in_the_keyring_and_nowhere_else(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    snapshot_file = tmp_path / "out" / "snapshot.json"
    with oauth_server(tmp_path) as server:
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url, "--out", str(snapshot_file))
        assert out.returncode == 0, out.stderr
        assert json.loads(snapshot_file.read_text())["status"] == "complete"
        (issued,) = server.issued()
    secrets = [issued["access_token"], issued["refresh_token"]]
    keyring = kept(tmp_path)
    assert any(issued["access_token"] in value for value in keyring.values())
    assert any(issued["refresh_token"] in value for value in keyring.values())
    client = json.loads(next(v for k, v in keyring.items() if k.endswith(":client")))
    secrets.append(client["client_secret"])
    written = files_under(Path(env["HOME"]), snapshot_file.parent)
    assert snapshot_file in written
    for path in written:
        content = path.read_bytes()
        assert not any(secret.encode() in content for secret in secrets), f"a secret was written to {path}"
    assert not any(secret in out.stdout + out.stderr for secret in secrets)


def test_configured_headers_go_to_the_mcp_server_and_never_to_the_authorization_server(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url, "--header", "X-Api-Key: hdr-SECRET-42")
        assert out.returncode == 0, out.stderr
        to_as = server.requests("as")
        to_rs = server.requests("rs")
    assert {r["path"] for r in to_as} >= {
        "/.well-known/oauth-authorization-server",
        "/register",
        "/authorize",
        "/token",
    }
    assert all("hdr-SECRET-42" not in json.dumps(r["headers"]) for r in to_as)
    mcp = [r for r in to_rs if r["path"] == "/mcp"]
    assert mcp and all(r["headers"].get("x-api-key") == "hdr-SECRET-42" for r in mcp)
    metadata = [r for r in to_rs if r["path"].startswith("/.well-known/")]
    assert metadata and all("x-api-key" not in r["headers"] for r in metadata)


def test_a_second_run_uses_the_kept_token_without_signing_in_again(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        assert run_cli(env, "snapshot", *FETCH, "--url", server.url).returncode == 0
        (first,) = server.issued()
        before = len(server.presented())
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert out.returncode == 0, out.stderr
        assert len(server.authorizations()) == 1 and len(server.issued()) == 1
        second_run = server.presented()[before:]
    assert first["access_token"] in second_run
    assert second_run[0] is None, "the kept token is read only once the server asks for one"


def _expire_kept_token(tmp_path: Path) -> None:
    """Make the kept access token's recorded expiry lie in the past (as if its lifetime had run out)."""
    path = tmp_path / "keyring.json"
    data = json.loads(path.read_text())
    (key,) = [k for k in data if k.endswith(":tokens")]
    entry = json.loads(data[key])
    entry["expires_at"] = time.time() - 60
    data[key] = json.dumps(entry)
    path.write_text(json.dumps(data))


def test_a_kept_token_that_has_expired_is_refreshed_before_it_is_sent(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        assert run_cli(env, "snapshot", *FETCH, "--url", server.url).returncode == 0
        (first,) = server.issued()
        _expire_kept_token(tmp_path)
        before = len(server.presented())
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert out.returncode == 0, out.stderr
        assert len(server.authorizations()) == 1, "no new sign-in"
        first_again, refreshed = server.issued()
        second_run = server.presented()[before:]
    assert refreshed["refresh_token"] == first["refresh_token"], "issued by the refresh token"
    assert first["access_token"] not in second_run, "the expired token was never sent"
    assert refreshed["access_token"] in second_run


def test_a_token_the_server_refuses_is_refreshed_before_anyone_is_asked_again(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        assert run_cli(env, "snapshot", *FETCH, "--url", server.url).returncode == 0
        server.admin("expire")  # the server no longer takes it; the kept expiry still says it is good
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert out.returncode == 0, out.stderr
        assert len(server.authorizations()) == 1, "no new sign-in"
        assert len(server.issued()) == 2


def _redirect_port(query: dict[str, list[str]]) -> int | None:
    return urlsplit(query["redirect_uri"][0]).port


def test_a_refused_refresh_is_said_and_the_new_sign_in_reuses_the_registration_and_its_port(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        assert run_cli(env, "snapshot", *FETCH, "--url", server.url).returncode == 0
        server.admin("revoke")
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert out.returncode == 0, out.stderr
        first, second = server.authorizations()
        assert len(server.requests("as", "/register")) == 1, "the kept registration was used again"
    assert first["client_id"] == second["client_id"] and _redirect_port(first) == _redirect_port(second)
    assert "refused to refresh the sign-in (HTTP 400: invalid_grant" in out.stderr


def test_a_registration_whose_port_is_taken_is_made_again_for_the_new_port(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        assert run_cli(env, "snapshot", *FETCH, "--url", server.url).returncode == 0
        (first,) = server.authorizations()
        server.admin("revoke")
        with socket.socket() as taken:  # another program now listens on the registered port
            taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the last sign-in's connection may linger
            taken.bind(("127.0.0.1", _redirect_port(first) or 0))
            taken.listen()
            out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert out.returncode == 0, out.stderr
        _, second = server.authorizations()
        assert len(server.requests("as", "/register")) == 2
    assert _redirect_port(second) != _redirect_port(first) and second["client_id"] != first["client_id"]


def test_a_fixed_redirect_port_is_used_for_the_sign_in(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with oauth_server(tmp_path) as server:
        out = run_cli(env, "snapshot", *FETCH, "--oauth-redirect-port", str(port), "--url", server.url)
        assert out.returncode == 0, out.stderr
        assert [_redirect_port(query) for query in server.authorizations()] == [port]


def test_signout_forgets_the_sign_in(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        assert run_cli(env, "snapshot", *FETCH, "--url", server.url).returncode == 0
        assert any(key.startswith("oauth:") for key in kept(tmp_path))
        out = run_cli(env, "signout", "--url", server.url)
        assert out.returncode == 0 and "signed out of" in out.stderr
        assert not any(key.startswith("oauth:") for key in kept(tmp_path))
        again = run_cli(env, "signout", "--url", server.url)
        assert again.returncode == 0 and "no sign-in was kept" in again.stderr
        assert run_cli(env, "snapshot", *FETCH, "--url", server.url).returncode == 0
        assert len(server.authorizations()) == 2, "signed out: the next run signs in again"


def test_a_redirect_with_a_wrong_state_is_refused(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--wrong-state") as server:
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert server.requests("as", "/authorize") and not server.issued(), "the code was never exchanged"
    assert out.returncode == 5
    error = _document(out)["error"]
    assert error["kind"] == "auth" and error["details"]["step"] == "authorization"
    assert error["details"]["cause"] == "state_mismatch"
    assert "failed: auth (authorization step: signing in): the redirect's state does not match" in out.stderr
    assert not any(key.endswith(":tokens") for key in kept(tmp_path))


def test_resource_metadata_for_another_resource_is_refused(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--resource-mismatch") as server:
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert not server.requests("as"), "nothing was asked of the authorization server"
    assert out.returncode == 5
    error = _document(out)["error"]
    assert (error["kind"], error["details"]["step"], error["details"]["cause"]) == (
        "auth",
        "metadata",
        "resource_mismatch",
    )
    assert "elsewhere.example" in error["message"]


def test_a_tool_call_that_needs_more_scope_signs_in_again_for_it(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--www-scope", "mcp:read", "--step-up", "tools/call:mcp:admin") as server:
        out = run_cli(env, "call", "echo", "--args", '{"text": "hi"}', *FETCH, "--url", server.url)
        scopes = [query["scope"][0] for query in server.authorizations()]
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["outcome"] == "ok"
    assert scopes == ["mcp:read", "mcp:read mcp:admin"]


def test_oauth_scope_replaces_the_scopes_the_server_names(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--www-scope", "mcp:read") as server:
        out = run_cli(env, "snapshot", *FETCH, "--oauth-scope", "mcp:write", "--url", server.url)
        assert out.returncode == 0, out.stderr
        assert [query["scope"] for query in server.authorizations()] == [["mcp:write"]]
        assert [token["scopes"] for token in server.issued()] == [["mcp:write"]]


def test_a_server_that_keeps_asking_for_more_scope_is_not_asked_forever(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--step-up", "tools/call:mcp:admin", "--step-up-always") as server:
        out = run_cli(env, "call", "echo", "--args", '{"text": "hi"}', *FETCH, "--url", server.url)
        sign_ins = len(server.authorizations())
    assert out.returncode == 5
    report = json.loads(out.stdout)
    assert report["outcome"] == "auth" and "still asks for scope mcp:admin" in report["error"]["message"]
    assert "authorization failed (scope step" in out.stderr
    assert sign_ins == 2, "one sign-in, one step-up, then no more"


def test_a_pre_registered_client_from_the_config_signs_in_with_its_secret_from_the_keyring(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    switches = ("--no-dcr", "--client", "inspector-app:pre-s3cret", "--auth-methods", "client_secret_basic")
    with oauth_server(tmp_path, *switches) as server:
        config = tmp_path / "servers.json"
        entry = {
            "type": "http",
            "url": server.url,
            "oauth": {"clientId": "inspector-app", "clientSecret": "${keyring:remote/oauth/clientSecret}"},
        }
        config.write_text(json.dumps({"mcpServers": {"remote": entry}}))
        keyring_file = tmp_path / "keyring.json"
        keyring_file.write_text(json.dumps({"mcp-catalog-inspector\nremote/oauth/clientSecret": "pre-s3cret"}))
        out = run_cli(env, "snapshot", *FETCH, "--server", "remote", "--config", str(config))
        assert out.returncode == 0, out.stderr
        (token_request,) = server.requests("as", "/token")
        assert not server.requests("as", "/register")
    assert token_request["headers"]["authorization"].startswith("Basic "), "basic, as the metadata allows"
    assert "pre-s3cret" not in out.stdout


def test_without_registration_or_a_client_id_the_sign_in_fails_at_registration(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--no-dcr") as server:
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
    assert out.returncode == 5
    error = _document(out)["error"]
    assert (error["details"]["step"], error["details"]["cause"]) == ("registration", "no_registration")
    assert "--oauth-client-id" in out.stderr


def test_a_client_metadata_document_url_is_the_client_id_where_the_server_supports_it(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    document = "https://client.example/mcp-catalog-inspector.json"
    with oauth_server(tmp_path, "--cimd", "--no-dcr") as server:
        out = run_cli(env, "snapshot", *FETCH, "--oauth-client-metadata-url", document, "--url", server.url)
        assert out.returncode == 0, out.stderr
        assert [query["client_id"] for query in server.authorizations()] == [[document]]


def test_a_legacy_sse_server_behind_oauth_is_signed_in_to_as_well(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--sse") as server:
        out = run_cli(env, "snapshot", *FETCH, "--sse", "--url", server.url)
        assert out.returncode == 0, out.stderr
        assert _document(out)["status"] == "complete"
        assert len(server.authorizations()) == 1


def test_a_401_without_a_bearer_challenge_stays_a_connection_error_and_starts_no_sign_in(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--plain-401") as server:
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert not server.requests("as") and not [r for r in server.requests("rs") if "well-known" in r["path"]]
    assert out.returncode == 4
    error = _document(out)["error"]
    assert error["kind"] == "connection" and "401" in error["message"]


def test_without_a_keyring_the_sign_in_is_kept_for_the_run_and_that_is_said_once(tmp_path: Path) -> None:
    env = cli_env(tmp_path, keyring_backend="keyring.backends.fail.Keyring")
    with oauth_server(tmp_path) as server:
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("kept in memory for this run only") == 1
    assert "no keyring is available here" in out.stderr


def test_no_store_keeps_nothing_in_the_keyring(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        out = run_cli(env, "snapshot", *FETCH, "--no-store", "--url", server.url)
    assert out.returncode == 0, out.stderr
    assert kept(tmp_path) == {}
    assert "memory" not in out.stderr, "--no-store is asked for: nothing to warn about"


def test_print_writes_the_url_and_waits_for_the_browser_to_come_back(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path) as server:
        command = [sys.executable, "-m", "catalog_inspector", "snapshot", "--oauth-open", "print", "--url", server.url]
        with subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        ) as proc:
            assert proc.stderr is not None
            lines = []
            for line in proc.stderr:  # each read is bounded by the CLI's own deadline
                lines.append(line)
                if line.startswith("http://127.0.0.1:") and "/authorize?" in line:
                    break
            assert "to sign in, open this URL in a browser" in "".join(lines)
            # The test plays the person: open the URL, follow the redirects back to the listener.
            reply = httpx2.get(lines[-1].strip(), follow_redirects=True, timeout=30)
            assert reply.status_code == 200 and "Signed in" in reply.text
            stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert json.loads(stdout)["status"] == "complete"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--oauth-client-id", "x", "--", sys.executable, "-m", "catalog_inspector.demo"], "go with an HTTP server"),
        (["--oauth-client-metadata-url", "http://client.example/x.json", "--url", "http://127.0.0.1:9/mcp"], "https"),
        (["--oauth-client-secret", "s", "--url", "http://127.0.0.1:9/mcp"], "goes with --oauth-client-id"),
        (
            ["--oauth-scope", "a", "--header", "Authorization: Bearer x", "--url", "http://127.0.0.1:9/mcp"],
            "Authorization",
        ),
    ],
)
def test_oauth_options_that_cannot_apply_are_usage_errors(tmp_path: Path, args: list[str], words: str) -> None:
    out = run_cli(cli_env(tmp_path), "snapshot", *args)
    assert out.returncode == 2 and words in out.stderr and out.stdout == ""


def test_resource_metadata_at_a_file_url_is_an_auth_error_at_the_metadata_step_and_never_read(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    with oauth_server(tmp_path, "--point", "resource_metadata=file:///etc/passwd") as server:
        out = run_cli(env, "snapshot", *FETCH, "--url", server.url)
        assert not server.requests("as"), "nothing was asked of the authorization server"
    assert out.returncode == 5, out.stderr
    error = _document(out)["error"]
    assert (error["kind"], error["details"]["step"], error["details"]["cause"]) == ("auth", "metadata", "unsafe_url")
    assert "refused to send a metadata request to file:" in error["message"] and "root:" not in out.stdout
    assert "Traceback" not in out.stderr
