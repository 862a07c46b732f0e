#!/usr/bin/python3
"""A controlled host: it owns the chat, echoes each message word by word, stops on Stop."""
import gi
gi.require_version("Akc", "1"), gi.require_version("AkcGtk", "1")
from gi.repository import Akc, AkcGtk, GLib, Gtk  # noqa: E402
Role, Status, Chat = Akc.MessageRole, Akc.MessageStatus, Akc.ChatStatus

def on_send(source, text):
    n, words = source.get_messages().get_n_items(), text.split()
    source.append_message(Akc.MessageRecord.new_text(f"u{n}", Role.USER, text, Status.COMPLETE, None))
    source.append_message(Akc.MessageRecord.new_text(f"a{n}", Role.ASSISTANT, "You said:", Status.STREAMING, None))
    source.set_status(Chat.STREAMING)
    def stream():  # a word every 50 ms, until the words run out or the person stops the reply
        if source.get_status() == Chat.STREAMING and words:
            return source.append_text(f"a{n}", " " + words.pop(0))
        if source.get_status() == Chat.STREAMING:
            source.set_message_status(f"a{n}", Status.COMPLETE)
            source.set_status(Chat.IDLE)
    GLib.timeout_add(50, stream)

source = Akc.ControlledSource.new()
source.set_session_id("python-host")
source.connect("send", on_send)
source.connect("stop", Akc.ControlledSource.mark_stopped)
window = Gtk.Window(title="Controlled host", default_width=480, default_height=640, child=AkcGtk.ChatWidget.new(source))
if __name__ == "__main__":
    loop = GLib.MainLoop()
    window.connect("close-request", lambda _window: loop.quit())
    window.present()
    loop.run()
