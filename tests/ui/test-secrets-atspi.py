#!/usr/bin/python3
"""A bearer token reaches the Ask server and nothing else (TAP, over AT-SPI).

Runs the real agentskit-chat in a private D-Bus session with gnome-keyring
(its own HOME), GSettings on the keyfile backend and every XDG base folder
in a temporary folder of its own, against a loopback Ask server:

1. the token is typed into the preferences (with real key presses), next to
   the Ask service's URL; the app quits with Ctrl+Q;
2. the app starts again in the Ask conversation, looks the token up in the
   keyring, and asks a question, which the server answers.

Then the same for a model provider's API key (issue 15 item 2), against
a loopback server that answers as Ollama does:

3. the base URL, the model and the API key are typed into the Providers
   page of the preferences; the app quits;
4. the app starts again in the Model Provider conversation, looks the key
   up in the keyring, and asks, which the provider answers.

The servers must have received the token and the key in the Authorization
header, and neither may appear in any file under the app's XDG_DATA_HOME,
XDG_CONFIG_HOME, XDG_CACHE_HOME and XDG_STATE_HOME (which hold its settings
and history), in its /proc/PID/environ and cmdline, and in its stdout and
stderr (with every debug message on).
"""

import http.server
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyatspi  # noqa: E402
import gi  # noqa: E402

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

import akc_atspi as ui  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish, skip_all  # noqa: E402


TOKEN = "akc-e2e-" + secrets.token_hex(16)
QUESTION = "what is the loopback"
ANSWER = "The loopback answers " + QUESTION
API_KEY = "sk-akc-e2e-" + secrets.token_hex(16)
MODEL = "loopback-model"
PROVIDER_QUESTION = "which model answers"
PROVIDER_ANSWER = "The loopback model answers " + PROVIDER_QUESTION
KEY_RETURN = 0xFF0D
KEY_ESCAPE = 0xFF1B


def key(keysym):
    Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)


def focused(acc):
    try:
        return acc.getState().contains(pyatspi.STATE_FOCUSED)
    except Exception:
        return False


class AskServer(http.server.ThreadingHTTPServer):
    def __init__(self):
        super().__init__(("127.0.0.1", 0), AskHandler)
        self.requests = []


class AskHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.requests.append({"path": self.path,
                                     "authorization": self.headers.get("Authorization"),
                                     "body": body})
        lines = [{"type": "text", "delta": ANSWER}, {"type": "done"}]
        data = "".join(json.dumps(line) + "\n" for line in lines).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class OllamaServer(http.server.ThreadingHTTPServer):
    def __init__(self):
        super().__init__(("127.0.0.1", 0), OllamaHandler)
        self.requests = []


class OllamaHandler(http.server.BaseHTTPRequestHandler):
    """/api/chat as Ollama streams it, and /api/tags."""
    protocol_version = "HTTP/1.1"

    def reply(self, content_type, data):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.server.requests.append({"path": self.path, "authorization": self.headers.get("Authorization"),
                                     "body": b""})
        self.reply("application/json", json.dumps({"models": [{"name": MODEL}]}).encode())

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.requests.append({"path": self.path, "authorization": self.headers.get("Authorization"),
                                     "body": body})
        lines = [{"model": MODEL, "message": {"role": "assistant", "content": PROVIDER_ANSWER}, "done": False},
                 {"model": MODEL, "message": {"role": "assistant", "content": ""}, "done": True,
                  "done_reason": "stop", "prompt_eval_count": 9, "eval_count": 7}]
        self.reply("application/x-ndjson", "".join(json.dumps(line) + "\n" for line in lines).encode())

    def log_message(self, *args):
        pass


def start_keyring(home):
    """A gnome-keyring of its own on the private session bus."""
    env = {k: v for k, v in os.environ.items() if k not in ("G_DEBUG", "MALLOC_PERTURB_", "G_SLICE")}
    env.update(HOME=home, XDG_DATA_HOME=os.path.join(home, ".local", "share"),
               XDG_CONFIG_HOME=os.path.join(home, ".config"), XDG_CACHE_HOME=os.path.join(home, ".cache"))
    daemon = subprocess.run(["gnome-keyring-daemon", "--unlock", "--components=secrets"],
                            input=b"akc-keyring-test-password", stdout=subprocess.PIPE,
                            env=env, timeout=30, check=True)
    out = {}
    for line in daemon.stdout.decode().splitlines():
        name, sep, value = line.partition("=")
        if sep:
            out[name] = value
    return out


def scan(folders, needle):
    """Every file under folders whose bytes contain needle."""
    found = []
    for folder in folders:
        for root, _dirs, files in os.walk(folder):
            for name in files:
                path = os.path.join(root, name)
                try:
                    with open(path, "rb") as f:
                        if needle in f.read():
                            found.append(path)
                except OSError:
                    pass
    return found


def main():
    exe = sys.argv[1]
    for tool in ("gnome-keyring-daemon",):
        if shutil.which(tool) is None:
            return skip_all(f"{tool} is not installed")

    tmp = tempfile.TemporaryDirectory(prefix="akc-secrets-")
    keyring_home = os.path.join(tmp.name, "keyring-home")
    os.mkdir(keyring_home, 0o700)
    xdg = {name: os.path.join(tmp.name, name.lower()) for name in
           ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")}
    for folder in xdg.values():
        os.mkdir(folder, 0o700)

    server = AskServer()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{server.server_address[1]}/v1/ask"
    provider = OllamaServer()
    threading.Thread(target=provider.serve_forever, daemon=True).start()
    provider_url = f"http://127.0.0.1:{provider.server_address[1]}"

    env = dict(xdg)
    env.update(start_keyring(keyring_home))
    env.update(GSETTINGS_BACKEND="keyfile", G_MESSAGES_DEBUG="all", HOME=os.path.join(tmp.name, "home"))
    os.mkdir(env["HOME"], 0o700)
    for name in ("SECRET_BACKEND", "SECRET_FILE_TEST_PATH", "SECRET_FILE_TEST_PASSWORD"):
        os.environ.pop(name, None)
    outputs = []
    leaks = []
    key_leaks = []

    def run(args, body):
        out = open(os.path.join(tmp.name, f"stdout-{len(outputs)}"), "wb")
        err = open(os.path.join(tmp.name, f"stderr-{len(outputs)}"), "wb")
        outputs.extend([out.name, err.name])
        full_env = dict(os.environ)
        full_env.update(env)
        full_env.pop("GTK_A11Y", None)
        proc = subprocess.Popen([exe] + args, env=ui.app_environment(full_env), stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        try:
            body(proc, ui.find_app(proc))
        except ui.Timeout as e:
            check(str(e), False)
        finally:
            if proc.poll() is None:
                ui.stop_app(proc)
            out.close()
            err.close()

    def check_process(proc, secret=TOKEN):
        for part in ("environ", "cmdline"):
            with open(f"/proc/{proc.pid}/{part}", "rb") as f:
                if secret.encode() in f.read():
                    (key_leaks if secret == API_KEY else leaks).append(f"/proc/PID/{part}")

    def wait_description(app, name, text):
        row = ui.wait_for(lambda: ui.find(app, name=name), what=f"the row {name!r}")
        return ui.wait_for(lambda: text in (row.description or ""), timeout=30.0,
                           what=f"{name!r} to say {text!r} (it says {row.description!r})")

    def type_into(app, name, text):
        """Clicks the row named name and types text into it. The row's own
        text field takes the keyboard (the click comes before the keys in
        the X event stream); the row shows what was typed."""
        entry = ui.wait_for(lambda: ui.find(app, role="text", name=name), what=f"the field {name!r}")
        frame = ui.wait_for(lambda: ui.find(app, role="frame", name="Preferences"), what="the preferences")
        ui.wait_for(lambda: frame.getState().contains(pyatspi.STATE_ACTIVE), what="the preferences to be active")
        ui.click(entry)
        ui.type_text(text)
        ui.wait_for(lambda: ui.text_of(entry) == text, what=f"the text typed in {name!r}")
        key(KEY_RETURN)

    def configure(proc, app):
        composer = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the composer")
        ui.wait_for(lambda: focused(composer), what="the composer to take the keyboard")
        ui.press_with_modifiers(ord(","))
        type_into(app, "Ask Service URL", endpoint)
        check("the URL typed into the preferences is applied with Enter",
              wait_description(app, "Ask Service Connection", "without a token"))
        type_into(app, "Ask Service Token", TOKEN)
        check("the token typed into the preferences is stored with Enter",
              wait_description(app, "Ask Service Connection", "with the stored token"))
        check_process(proc)
        # Escape dismisses the toast that says the token is stored, then
        # closes the preferences.
        for attempt in range(3):
            key(KEY_ESCAPE)
            try:
                ui.wait_for(lambda: ui.find(app, role="frame", name="Preferences") is None, timeout=3.0,
                            what="Escape to close the preferences")
                break
            except ui.Timeout:
                if attempt == 2:
                    raise
        proc.terminate()
        check("SIGTERM quits as Ctrl+Q does", proc.wait(timeout=20) == 0)

    def ask(proc, app):
        composer = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the composer")
        ui.wait_for(lambda: focused(composer), what="the composer to take the keyboard")
        ui.type_text(QUESTION)
        ui.wait_for(lambda: ui.text_of(composer) == QUESTION, what="the typed question")
        key(KEY_RETURN)
        log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
        check("the Ask conversation shows the loopback server's answer",
              ui.wait_for(lambda: ANSWER in ui.texts_under(log), timeout=30.0, what="the answer"))
        check_process(proc)
        ui.press_with_modifiers(ord("q"))
        check("Ctrl+Q quits", proc.wait(timeout=20) == 0)

    def close_preferences():
        for attempt in range(3):
            key(KEY_ESCAPE)
            try:
                ui.wait_for(lambda: ui.find(app_ref[0], role="frame", name="Preferences") is None, timeout=3.0,
                            what="Escape to close the preferences")
                break
            except ui.Timeout:
                if attempt == 2:
                    raise

    app_ref = [None]

    def configure_provider(proc, app):
        app_ref[0] = app
        composer = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the composer")
        ui.wait_for(lambda: focused(composer), what="the composer to take the keyboard")
        ui.press_with_modifiers(ord(","))
        frame = ui.wait_for(lambda: ui.find(app, role="frame", name="Preferences"), what="the preferences")
        switch = ui.wait_for(lambda: next((acc for acc in ui.find_all(frame, name="Providers")
                                           if acc.getRoleName() in ("toggle button", "push button",
                                                                    "radio button", "page tab")), None),
                             what="the Providers page's switch")
        ui.click(switch)
        type_into(app, "Model Provider Base URL", provider_url)
        type_into(app, "Model Provider Default Model", MODEL)
        type_into(app, "Model Provider API Key", API_KEY)
        check("the API key typed into the Providers page is stored with Enter",
              wait_description(app, "Model Provider Connection", "with the stored API key"))
        check_process(proc, API_KEY)
        close_preferences()
        proc.terminate()
        check("SIGTERM quits", proc.wait(timeout=20) == 0)

    def chat(proc, app):
        composer = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the composer")
        ui.wait_for(lambda: focused(composer), what="the composer to take the keyboard")
        ui.type_text(PROVIDER_QUESTION)
        ui.wait_for(lambda: ui.text_of(composer) == PROVIDER_QUESTION, what="the typed question")
        key(KEY_RETURN)
        log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
        check("the Model Provider conversation shows the loopback provider's answer",
              ui.wait_for(lambda: PROVIDER_ANSWER in ui.texts_under(log), timeout=30.0, what="the model's answer"))
        check_process(proc, API_KEY)
        ui.press_with_modifiers(ord("q"))
        check("Ctrl+Q quits", proc.wait(timeout=20) == 0)

    run([], configure)
    run(["--demo=ask"], ask)
    run([], configure_provider)
    run(["--demo=provider"], chat)

    check(f"the server got one question ({len(server.requests)})", len(server.requests) == 1)
    check("the server received the token from the keyring in the Authorization header",
          server.requests and server.requests[0]["authorization"] == "Bearer " + TOKEN)
    check("the question was posted", server.requests and QUESTION.encode() in server.requests[0]["body"])

    folders = list(xdg.values())
    keyfile = os.path.join(xdg["XDG_CONFIG_HOME"], "glib-2.0", "settings", "keyfile")
    check("the settings were written to the keyfile in XDG_CONFIG_HOME (with the URL)",
          os.path.isfile(keyfile) and endpoint.encode() in open(keyfile, "rb").read())
    check("the conversation was written under the XDG folders (the scan reads what the app wrote)",
          scan(folders, QUESTION.encode()))
    leaks += scan(folders, TOKEN.encode())
    leaks += [path for path in outputs if TOKEN.encode() in open(path, "rb").read()]
    check(f"the token is in no file the app wrote, nor its environment, arguments or output {leaks}", not leaks)

    chats = [r for r in provider.requests if r["path"] == "/api/chat"]
    check(f"the provider got one question, for the model typed ({len(chats)})",
          len(chats) == 1 and PROVIDER_QUESTION.encode() in chats[0]["body"]
          and json.loads(chats[0]["body"])["model"] == MODEL)
    check("the provider received the API key from the keyring in the Authorization header",
          chats and chats[0]["authorization"] == "Bearer " + API_KEY)
    check("the provider's base URL is in the settings",
          os.path.isfile(keyfile) and provider_url.encode() in open(keyfile, "rb").read())
    check("the provider conversation was written under the XDG folders", scan(folders, PROVIDER_QUESTION.encode()))
    key_leaks += scan(folders, API_KEY.encode())
    key_leaks += [path for path in outputs if API_KEY.encode() in open(path, "rb").read()]
    check(f"the API key is in no file the app wrote, nor its environment, arguments or output {key_leaks}",
          not key_leaks)

    provider.shutdown()
    server.shutdown()
    tmp.cleanup()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
