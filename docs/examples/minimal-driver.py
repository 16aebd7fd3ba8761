#!/usr/bin/env python3
"""A minimal harness driver (driver protocol v1) in Python 3.11, standard library only.

It wraps a small harness of its own, built on purpose unlike the bundled reference harness:
threads and time.monotonic() deadlines instead of an event loop; per_event backends started
through `/bin/sh -c` with a quoted command line, each in a process group of its own; a persistent
backend started at `configure`, read by a thread that matches replies to calls by JSON-RPC id;
and HTTP with a new connection per request, whose socket timeout is what is left of the deadline.
It raises `tool.before` only, advertises `deny` only, and announces exactly that (see
docs/driver-protocol.md, "The minimal example in Python").
"""

import http.client
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from datetime import datetime, timezone

GENERIC_REASON = "Required policy backend unavailable."
SOURCE = f"urn:uuid:{uuid.uuid4()}"
REVERSE_DNS = re.compile(r"^(?:[A-Za-z][A-Za-z0-9_-]*\.)+[A-Za-z][A-Za-z0-9_-]*$")
TOKEN_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SELECTOR = re.compile(r"^(?:\*|[a-z][a-z0-9]*\.\*)$")
INTERCEPTABLE = {
    "tool.before", "tool.after", "session.start", "config.change.before", "turn.start",
    "turn.finish.before", "model.request.before", "model.switch.before",
    "tool.permission.request", "tool.batch.after", "context.compact.before",
    "context.compact.after", "task.change.before", "user.elicitation.request",
    "user.elicitation.result", "user.message.inbound", "user.message.outbound",
    "workspace.change.before", "model.response.after",
}
OBSERVE_ONLY = {
    "session.end", "config.change.after", "turn.end", "turn.progress", "model.error",
    "model.switch.after", "tool.permission.resolved", "tool.progress", "task.change.after",
    "user.attention", "workspace.change.after", "file.changed", "hook.failure",
}
SELECTIONS = {"body", "metadata", "omit"}
DENY_FIELDS = {"type", "reason", "code", "extensions"}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
SHELL_CANNOT_RUN = {126, 127}  # POSIX sh: found but not executable; not found


def log(message):
    print(f"[py-harness] {message}", file=sys.stderr, flush=True)


class Failure(Exception):
    """An operational failure of one delivery: its class, a finer code, and whether it was sent."""

    def __init__(self, failure_class, code, sent=True):
        super().__init__(code)
        self.failure_class = failure_class
        self.code = code
        self.sent = sent


class Interrupted(Exception):
    """`close` ended the delivery."""


# ---- the registration ----------------------------------------------------------------------------


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def check_registration(doc):
    issues = []

    def issue(path, message):
        issues.append({"path": path, "message": message})

    if not isinstance(doc, dict):
        return [{"path": "$", "message": "a registration is a JSON object"}]
    if doc.get("protocolVersion") != "draft":
        issue("$.protocolVersion", 'must be "draft"')
    hooks = doc.get("hooks")
    if not isinstance(hooks, list) or not hooks:
        issue("$.hooks", "must be a non-empty array")
        hooks = []
    seen = set()
    for i, hook in enumerate(hooks):
        at = f"$.hooks[{i}]"
        if not isinstance(hook, dict):
            issue(at, "must be an object")
            continue
        hook_id = hook.get("id")
        if not isinstance(hook_id, str) or not REVERSE_DNS.match(hook_id):
            issue(f"{at}.id", "must be a reverse-DNS name")
        elif hook_id in seen:
            issue(f"{at}.id", "must be unique in the document")
        seen.add(hook_id)
        if "contentReceiver" in hook:
            issue(f"{at}.contentReceiver", "is not a registration field")
        check_transport(hook.get("transport"), hook.get("authentication"), at, issue)
        subs = hook.get("subscriptions")
        if not isinstance(subs, list) or not subs:
            issue(f"{at}.subscriptions", "must be a non-empty array")
            continue
        for j, sub in enumerate(subs):
            check_subscription(sub, f"{at}.subscriptions[{j}]", issue)
    return issues


def check_transport(transport, auth, at, issue):
    kind = transport.get("type") if isinstance(transport, dict) else None
    if kind == "stdio":
        command = transport.get("command")
        if not isinstance(command, str) or not command:
            issue(f"{at}.transport.command", "must be a non-empty string")
        args = transport.get("args", [])
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            issue(f"{at}.transport.args", "must be an array of strings")
        if transport.get("lifecycle") not in ("persistent", "per_event"):
            issue(f"{at}.transport.lifecycle", 'must be "persistent" or "per_event"')
        if "cwd" in transport and not isinstance(transport["cwd"], str):
            issue(f"{at}.transport.cwd", "must be a string")
        if auth is not None:
            issue(f"{at}.authentication", "applies to HTTP backends only")
    elif kind == "http":
        url = transport.get("url")
        parts = urllib.parse.urlsplit(url) if isinstance(url, str) else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            issue(f"{at}.transport.url", "must be an absolute http(s) URL")
        elif parts.scheme == "http" and parts.hostname not in LOOPBACK:
            issue(f"{at}.transport.url", "plain http is allowed on loopback only; use https")
        if auth is not None:
            check_auth(auth, f"{at}.authentication", issue)
    else:
        issue(f"{at}.transport", 'must be a "stdio" or an "http" transport')


def check_auth(auth, at, issue):
    if not isinstance(auth, dict) or auth.get("type") != "bearer":
        issue(f"{at}.type", 'this harness supports "bearer" authentication only')
        return
    for literal in ("token", "bearerToken", "value"):
        if literal in auth:
            issue(f"{at}.{literal}", "a registration never carries a literal secret")
    if "tokenRef" in auth:
        issue(f"{at}.tokenRef", "this harness has no token provider; use tokenEnv")
    elif not isinstance(auth.get("tokenEnv"), str) or not TOKEN_ENV.match(auth["tokenEnv"]):
        issue(f"{at}.tokenEnv", "must name an environment variable")


def check_subscription(sub, at, issue):
    if not isinstance(sub, dict):
        issue(at, "must be an object")
        return
    mode = sub.get("mode")
    if mode not in ("intercept", "observe"):
        issue(f"{at}.mode", 'must be "intercept" or "observe"')
    events = sub.get("events")
    if not isinstance(events, list) or not events or len(set(map(str, events))) != len(events):
        issue(f"{at}.events", "must be a non-empty array of distinct names")
    else:
        for k, name in enumerate(events):
            if not isinstance(name, str) or not (
                SELECTOR.match(name) or name in INTERCEPTABLE or name in OBSERVE_ONLY
            ):
                issue(f"{at}.events[{k}]", "must be an event name, a family wildcard or *")
            elif mode == "intercept" and name in OBSERVE_ONLY:
                issue(f"{at}.events[{k}]", "an observation-only event cannot be intercepted")
    content = sub.get("content")
    if not isinstance(content, dict) or content.get("default") not in SELECTIONS:
        issue(f"{at}.content.default", 'must be "body", "metadata" or "omit"')
    elif any(v not in SELECTIONS for v in content.values()):
        issue(f"{at}.content", 'every selection must be "body", "metadata" or "omit"')
    if sub.get("scope") == "managed" and sub.get("disableable") is not False:
        issue(f"{at}.disableable", "a managed subscription must set disableable to false")
    if mode == "observe":
        # Observers never decide, so a failure policy or a deadline on one means nothing.
        for field in ("failurePolicy", "timeoutMs"):
            if field in sub:
                issue(f"{at}.{field}", "an observe subscription must not carry it")
    elif mode == "intercept":
        if not is_int(sub.get("timeoutMs")) or sub["timeoutMs"] < 1:
            issue(f"{at}.timeoutMs", "must be a positive integer")
        if sub.get("failurePolicy") not in ("fail-open", "fail-closed"):
            issue(f"{at}.failurePolicy", 'must be "fail-open" or "fail-closed" (there is no default)')


def matches_tool_before(sub):
    return sub.get("mode") == "intercept" and any(
        e in ("*", "tool.*", "tool.before") for e in sub.get("events", [])
    )


# ---- judging a reply -----------------------------------------------------------------------------


def judge_reply(raw, request_id):
    """Returns the deny reason of an explicit deny, None for no effect; raises Failure otherwise."""
    try:
        message = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Failure("malformed", "reply.not-json")
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        raise Failure("malformed", "reply.not-jsonrpc")
    if ("result" in message) == ("error" in message):
        raise Failure("malformed", "reply.result-and-error")
    if message.get("id") != request_id:
        raise Failure("id-mismatch", "reply.id-mismatch")
    if "error" in message:
        error = message["error"]
        code = error.get("code") if isinstance(error, dict) else None
        if code in (-32001, -32002):
            raise Failure("unsupported", f"reply.error{code}")
        raise Failure("jsonrpc-error", "reply.error")
    result = message["result"]
    if not isinstance(result, dict):
        raise Failure("malformed", "reply.result-not-object")
    if "protocolVersion" not in result or "effects" not in result:
        raise Failure("missing-fields", "reply.missing-fields")
    if result["protocolVersion"] != "draft":
        raise Failure("unsupported", "reply.protocol-version")
    effects = result["effects"]
    if not isinstance(effects, list) or not all(valid_deny(e) for e in effects):
        raise Failure("invalid-effects", "reply.invalid-effects")
    return effects[0]["reason"] if effects else None


def valid_deny(effect):
    # Effect objects are strict: anything but a well-formed deny rejects the whole reply.
    if not isinstance(effect, dict) or effect.get("type") != "deny" or set(effect) - DENY_FIELDS:
        return False
    if not isinstance(effect.get("reason"), str) or not effect["reason"]:
        return False
    if "code" in effect and not (isinstance(effect["code"], str) and REVERSE_DNS.match(effect["code"])):
        return False
    return "extensions" not in effect or isinstance(effect["extensions"], dict)


# ---- transports ----------------------------------------------------------------------------------


def minimal_env():
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def kill_group(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Waiter:
    """One delivery's single outcome: the first of a reply, a failure, or an interruption."""

    def __init__(self):
        self.done = threading.Event()
        self.outcome = None

    def settle(self, outcome):
        if not self.done.is_set():
            self.outcome = outcome
            self.done.set()

    def wait(self, deadline):
        if not self.done.wait(max(0.0, deadline - time.monotonic())):
            self.settle(Failure("deadline-exceeded", "deadline.exceeded"))
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome


class PerEventStdio:
    """One process per event, through /bin/sh: one message, EOF, then at most one reply and exit."""

    def __init__(self, transport, harness):
        argv = [transport["command"], *transport.get("args", [])]
        self.command_line = " ".join(shlex.quote(a) for a in argv)
        self.cwd = transport.get("cwd")
        self.harness = harness

    def deliver(self, frame, request_id, deadline):
        waiter = Waiter()
        try:
            process = subprocess.Popen(
                ["/bin/sh", "-c", self.command_line],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=minimal_env(),
                cwd=self.cwd,
                start_new_session=True,  # its own process group: one kill reaches the backend too
            )
        except OSError:
            raise Failure("process", "stdio.launch", sent=False)
        self.harness.track(process, waiter)
        threading.Thread(target=self.exchange, args=(process, frame, waiter), daemon=True).start()
        try:
            out = waiter.wait(deadline)
        finally:
            kill_group(process)
            process.wait()
            self.harness.untrack(process, waiter)
        if out["status"] in SHELL_CANNOT_RUN and not out["stdout"]:
            # The shell could not run the command: the message reached no backend.
            raise Failure("process", "stdio.launch", sent=False)
        if out["status"] != 0:
            raise Failure("process", "stdio.exit-nonzero")
        lines = [line for line in out["stdout"].split(b"\n") if line.strip()]
        if not lines:
            raise Failure("process", "stdio.no-reply")
        if len(lines) > 1:
            raise Failure("malformed", "stdio.more-than-one-reply")
        return judge_reply(lines[0].rstrip(b"\r"), request_id)

    @staticmethod
    def exchange(process, frame, waiter):
        try:
            process.stdin.write(frame + b"\n")
            process.stdin.close()  # EOF after the one message
        except OSError:
            pass  # it exited without reading; its exit status tells
        stdout = process.stdout.read()
        waiter.settle({"stdout": stdout, "status": process.wait()})


class PersistentStdio:
    """One long-lived process, started at configure; a reader thread matches replies by id."""

    def __init__(self, transport, harness):
        self.argv = [transport["command"], *transport.get("args", [])]
        self.cwd = transport.get("cwd")
        self.harness = harness
        self.serial = threading.Lock()  # one intercept outstanding at a time
        self.pending = {}  # JSON-RPC id -> Waiter, under harness.lock
        self.process = None  # the current process; None once it can answer nothing more
        self.start()

    def start(self):
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=minimal_env(),
                cwd=self.cwd,
                start_new_session=True,
            )
        except OSError as error:
            log(f"cannot start {self.argv[0]}: {error}")
            return None
        self.harness.track(process, None)
        with self.harness.lock:
            self.process = process
        threading.Thread(target=self.read, args=(process,), daemon=True).start()
        return process

    def read(self, process):
        for raw in process.stdout:
            line = raw.rstrip(b"\n").rstrip(b"\r")
            if not line.strip():
                continue
            try:
                message = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                message = None
            if not isinstance(message, dict):
                # Not one JSON-RPC object (not JSON, a batch, a bare value): it answers nothing,
                # and the stream cannot be trusted any more.
                self.retire(process, Failure("malformed", "stdio.not-a-message"))
                break
            with self.harness.lock:
                key = message.get("id")
                waiter = self.pending.get(key) if isinstance(key, (str, int)) else None
            if waiter is not None:
                waiter.settle(line)
            # Anything else answers no call of ours (a stray or a late reply): ignored.
        # Its stdout ended: whatever it still does, it can answer nothing any more.
        self.retire(process, Failure("process", "stdio.stdout-closed"))
        kill_group(process)
        process.wait()

    def retire(self, process, failure):
        with self.harness.lock:
            if self.process is not process:
                return
            self.process = None
            waiters = list(self.pending.values())
        for waiter in waiters:
            waiter.settle(failure)
        kill_group(process)

    def deliver(self, frame, request_id, deadline):
        if not self.serial.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise Failure("deadline-exceeded", "deadline.queued", sent=False)
        try:
            with self.harness.lock:
                process = self.process
            if process is None:
                process = self.start()  # started again after an exit, inside this deadline
            if process is None:
                raise Failure("process", "stdio.launch", sent=False)
            waiter = Waiter()
            with self.harness.lock:
                self.pending[request_id] = waiter
                retired = self.process is not process
            self.harness.track(None, waiter)
            try:
                if retired:
                    raise Failure("process", "stdio.stdout-closed", sent=False)
                try:
                    process.stdin.write(frame + b"\n")
                    process.stdin.flush()
                except OSError:
                    raise Failure("process", "stdio.write")
                line = waiter.wait(deadline)
            finally:
                with self.harness.lock:
                    self.pending.pop(request_id, None)
                self.harness.untrack(None, waiter)
            return judge_reply(line, request_id)
        finally:
            self.serial.release()


class Http:
    """A new connection per request; its socket timeout is what is left of the deadline."""

    def __init__(self, transport, authentication, harness):
        self.url = urllib.parse.urlsplit(transport["url"])
        self.token_env = (authentication or {}).get("tokenEnv")
        self.harness = harness

    def deliver(self, frame, request_id, deadline):
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token_env is not None:
            token = os.environ.get(self.token_env)
            if not token:
                # Resolved per call, so a missing credential is this call's failure, never a fallback.
                raise Failure("auth", "auth.token-unset", sent=False)
            headers["Authorization"] = f"Bearer {token}"
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Failure("deadline-exceeded", "deadline.exceeded", sent=False)
        connection_class = (
            http.client.HTTPSConnection if self.url.scheme == "https" else http.client.HTTPConnection
        )
        connection = connection_class(self.url.hostname, self.url.port, timeout=remaining)
        path = (self.url.path or "/") + (f"?{self.url.query}" if self.url.query else "")
        waiter = Waiter()
        self.harness.track(None, waiter)
        threading.Thread(
            target=self.exchange, args=(connection, path, frame, headers, waiter), daemon=True
        ).start()
        try:
            status, media_type, body = waiter.wait(deadline)
        finally:
            connection.close()
            self.harness.untrack(None, waiter)
        if status != 200:
            raise Failure("http-status", f"http.status-{status}")
        if media_type != "application/json":
            raise Failure("malformed", "http.content-type")
        return judge_reply(body, request_id)

    @staticmethod
    def exchange(connection, path, frame, headers, waiter):
        try:
            connection.request("POST", path, body=frame, headers=headers)
            response = connection.getresponse()
            body = response.read()
            media_type = (response.getheader("Content-Type") or "").split(";")[0].strip().lower()
            waiter.settle((response.status, media_type, body))
        except TimeoutError:
            waiter.settle(Failure("deadline-exceeded", "http.socket-timeout"))
        except (ConnectionError, http.client.RemoteDisconnected, http.client.IncompleteRead):
            waiter.settle(Failure("connection", "http.connection"))
        except (http.client.HTTPException, ValueError):
            waiter.settle(Failure("malformed", "http.malformed-response"))
        except OSError:
            waiter.settle(Failure("connection", "http.connection"))


# ---- the harness ---------------------------------------------------------------------------------


class Harness:
    def __init__(self, registration):
        self.lock = threading.Lock()
        self.closed = False
        self.processes = set()
        self.waiters = set()
        self.hooks = []
        for hook in registration["hooks"]:
            transport = hook["transport"]
            if transport["type"] == "http":
                channel = Http(transport, hook.get("authentication"), self)
            elif transport["lifecycle"] == "per_event":
                channel = PerEventStdio(transport, self)
            else:
                channel = PersistentStdio(transport, self)
            self.hooks.append((hook, channel))

    def track(self, process, waiter):
        with self.lock:
            if process is not None:
                self.processes.add(process)
            if waiter is not None:
                self.waiters.add(waiter)
            closed = self.closed
        if closed:
            if process is not None:
                kill_group(process)
            if waiter is not None:
                waiter.settle(Interrupted())

    def untrack(self, process, waiter):
        with self.lock:
            self.processes.discard(process)
            self.waiters.discard(waiter)

    def close(self):
        with self.lock:
            self.closed = True
            processes, waiters = list(self.processes), list(self.waiters)
        for waiter in waiters:
            waiter.settle(Interrupted())
        for process in processes:
            kill_group(process)
        for process in processes:
            process.wait()  # reaped before close answers

    def raise_tool_before(self, params):
        event = build_event(params.get("event"))
        frame = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": event["id"],
                "method": "hooks/intercept",
                "params": {"protocolVersion": "draft", "event": event, "capabilities": {"effects": ["deny"]}},
            },
            separators=(",", ":"),
        ).encode("utf-8")
        audit = []

        def settled(decision, **fields):
            return {"decision": decision, "synthetic": False, "interrupted": False,
                    "eventId": event["id"], "audit": audit, **fields}

        for hook, channel in self.hooks:
            for index, sub in enumerate(hook["subscriptions"]):
                if not matches_tool_before(sub):
                    continue
                policy = sub["failurePolicy"]
                entry = {"backendId": hook["id"], "mode": "intercept", "subscriptionIndex": index,
                         "policy": policy}
                audit.append(entry)
                started = time.monotonic()
                try:
                    reason = channel.deliver(frame, event["id"], started + sub["timeoutMs"] / 1000)
                except Interrupted:
                    entry.update(outcome="interrupted", durationMs=elapsed_ms(started))
                    return settled("deny", reason=GENERIC_REASON, synthetic=True,
                                   interrupted=True, ending="closed")
                except Failure as failure:
                    entry.update(outcome="operational-failure", failureClass=failure.failure_class,
                                 failureCode=failure.code, attempts=1 if failure.sent else 0,
                                 durationMs=elapsed_ms(started))
                    if policy == "fail-closed":
                        entry["synthetic"] = True
                        return settled("deny", reason=GENERIC_REASON, synthetic=True)
                    continue
                entry.update(attempts=1, durationMs=elapsed_ms(started))
                if reason is not None:
                    entry.update(outcome="deny", synthetic=False)
                    return settled("deny", reason=reason)
                entry["outcome"] = "no-effect"
        return settled("continue")


def elapsed_ms(started):
    return round((time.monotonic() - started) * 1000, 3)


def build_event(given):
    if not isinstance(given, dict) or given.get("type", "tool.before") != "tool.before":
        raise RpcError(-32602, "params.event must be a tool.before: this harness raises no other event")
    call, tool = given.get("call"), given.get("tool")
    if not isinstance(call, dict) or not isinstance(call.get("id"), str):
        raise RpcError(-32602, "params.event.call.id must be a string")
    if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or not isinstance(
        tool.get("input"), dict
    ):
        raise RpcError(-32602, "params.event.tool needs a name and an input object")
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    event_id = given.get("id") if isinstance(given.get("id"), str) else f"evt_{uuid.uuid4().hex}"
    event = {"id": event_id, "source": SOURCE, "type": "tool.before", "time": now}
    if isinstance(given.get("session"), dict):
        event["session"] = given["session"]
    event["call"] = {"id": call["id"]}
    event["tool"] = {"name": tool["name"], "input": tool["input"], "origin": "native"}
    if isinstance(tool.get("kind"), str):
        event["tool"]["kind"] = tool["kind"]
    event["path"] = "native"
    return event


# ---- the driver protocol: one JSON-RPC object per line on stdin/stdout ---------------------------


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class Driver:
    def __init__(self):
        self.write_lock = threading.Lock()
        self.state_lock = threading.Lock()
        self.initialized = False
        self.harness = None

    def send(self, message):
        line = json.dumps(message, separators=(",", ":")) + "\n"
        with self.write_lock:
            sys.stdout.write(line)
            sys.stdout.flush()

    def initialize(self, params):
        self.initialized = True
        return {
            "implementation": {"name": "minimal-example-harness-python", "version": "0.0.1"},
            "protocolVersions": ["draft"],
            "bindings": ["stdio", "http"],
            "features": {
                "retries": False, "budget": False, "cancel": False, "close": True,
                "observe": False, "tokenEnv": True, "tokenProvider": False,
                "stdioPersistent": True, "stdioPerEvent": True, "http": True,
            },
        }

    def configure(self, params):
        if params.get("retries"):
            raise RpcError(-32602, "params.retries is not supported by this harness")
        registration = params.get("registration")
        issues = check_registration(registration)
        if issues:
            return {"accepted": False, "issues": issues}
        with self.state_lock:
            previous, self.harness = self.harness, None
        if previous is not None:
            previous.close()
        harness = Harness(registration)
        with self.state_lock:
            self.harness = harness
        return {"accepted": True}

    def invoke(self, params):
        harness = self.harness
        if harness is None:
            raise RpcError(-32011, "No harness is configured; call configure first.")
        if harness.closed:
            raise RpcError(-32012, "The harness is closed; configure a new one to invoke hooks again.")
        return harness.raise_tool_before(params)

    def close(self, params):
        if self.harness is not None:
            self.harness.close()
        return {}

    def handle(self, request):
        request_id = request.get("id")
        name = request.get("method")
        if name not in ("initialize", "configure", "invoke", "close"):
            return self.send({"jsonrpc": "2.0", "id": request_id,
                              "error": {"code": -32601, "message": "Method not found"}})
        try:
            if not self.initialized and name != "initialize":
                raise RpcError(-32010, "Call initialize first.")
            params = request.get("params") or {}
            self.send({"jsonrpc": "2.0", "id": request_id, "result": getattr(self, name)(params)})
        except RpcError as error:
            self.send({"jsonrpc": "2.0", "id": request_id,
                       "error": {"code": error.code, "message": str(error)}})
        except Exception as error:  # anything unexpected inside the harness
            log(f"{name} failed: {error!r}")
            self.send({"jsonrpc": "2.0", "id": request_id,
                       "error": {"code": -32013, "message": "The harness failed unexpectedly."}})

    def shutdown(self, *_):
        if self.harness is not None:
            self.harness.close()
        sys.stdout.flush()
        os._exit(0)

    def run(self):
        signal.signal(signal.SIGTERM, self.shutdown)
        for raw in sys.stdin.buffer:
            try:
                request = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
                continue
            if not isinstance(request, dict):
                self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
                continue
            # Each call on a thread of its own: `close` must be able to end an `invoke` in flight.
            threading.Thread(target=self.handle, args=(request,), daemon=True).start()
        self.shutdown()


if __name__ == "__main__":
    Driver().run()
