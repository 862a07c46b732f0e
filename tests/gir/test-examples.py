#!/usr/bin/python3
"""The Python example host (examples/python/controlled-host.py), driven as a person would (TAP).

  test-examples.py EXAMPLE

Loads the example without running its main loop, then types into its
composer, sends, waits for the streamed reply, and stops a second one.
"""

import runpy
import sys

import gi

gi.require_version("Akc", "1")
gi.require_version("AkcGtk", "1")
gi.require_version("Gtk", "4.0")
from gi.repository import Akc, AkcGtk, GLib, Gtk  # noqa: E402

results = []


def check(ok, description):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {description}", flush=True)


def wait_for(predicate, timeout_s=30):
    context = GLib.MainContext.default()
    deadline = GLib.get_monotonic_time() + timeout_s * 1_000_000
    while not predicate() and GLib.get_monotonic_time() < deadline:
        context.iteration(False) or GLib.usleep(1000)
    return predicate()


def rows(widget):
    """The texts of the message rows shown, in order."""
    found = []
    child = widget.get_first_child()
    while child is not None:
        if isinstance(child, AkcGtk.MessageRow) and child.get_mapped():
            found.append(child.get_text())
        found.extend(rows(child))
        child = child.get_next_sibling()
    return found


path = sys.argv[1]
check(len(open(path).read().splitlines()) <= 30, "the minimal Python host is at most 30 lines")
example = runpy.run_path(path, run_name="example")
source, window = example["source"], example["window"]
window.present()
widget = window.get_child()
check(isinstance(widget, AkcGtk.ChatWidget) and widget.get_source() == source,
      "the example shows its source in an AkcGtk.ChatWidget")
composer = widget.get_composer()
check(wait_for(lambda: window.get_focus() is not None and window.get_focus().is_ancestor(composer)),
      "the composer has the keyboard when the window opens")
messages = source.get_messages()
changes = []
messages.connect("items-changed", lambda _m, position, removed, added: changes.append((position, removed, added)))

composer.set_text("one two three")
check(composer.send(), "the composer sends")
check(wait_for(lambda: source.get_status() == Akc.ChatStatus.STREAMING and messages.get_n_items() == 2),
      "the host answers with a streaming reply")
reply = messages.get_item(1)
check(wait_for(lambda: source.get_status() == Akc.ChatStatus.IDLE),
      "the reply finishes")
check(reply.get_content() == "You said: one two three" and reply.get_status() == Akc.MessageStatus.COMPLETE,
      f"the reply streamed word by word into one message ({reply.get_content()!r})")
check(changes == [(0, 0, 1), (1, 0, 1)],
      f"two appends are the only changes of the list: streaming text changes no item ({changes})")
check(wait_for(lambda: rows(widget.get_view()) == ["one two three", "You said: one two three"]),
      f"the transcript shows both ({rows(widget.get_view())})")
snapshot = source.get_snapshot()
check(snapshot is not None and Akc.controlled_snapshot_parse(snapshot)[0] is not None,
      "the edited state is a valid snapshot")

words = " ".join(f"w{i}" for i in range(200))
composer.set_text(words)
check(composer.send(), "a long message is sent")
second = None
check(wait_for(lambda: messages.get_n_items() == 4 and len(messages.get_item(3).get_content().split()) >= 4),
      "its reply starts streaming")
second = messages.get_item(3)
check(composer.activate_action("composer.stop", None), "Stop is pressed")
check(source.get_status() == Akc.ChatStatus.IDLE and second.get_stopped() and
      second.get_status() == Akc.MessageStatus.COMPLETE,
      "the host marks the reply stopped: complete, stopped, the chat idle")
check(len(second.get_content()) < len("You said: " + words), "the stopped reply keeps what had arrived")

window.destroy()
print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
