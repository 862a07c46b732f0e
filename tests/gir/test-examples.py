#!/usr/bin/python3
"""The Python example host (examples/python/controlled-host.py), driven as a person would (TAP).

  test-examples.py EXAMPLE

Loads the example without running its main loop, then types into its
composer, sends, waits for the streamed reply, and stops a second one.
"""

import os
import runpy
import sys

import gi

gi.require_version("Akc", "1")
gi.require_version("AkcGtk", "1")
gi.require_version("Gtk", "4.0")
from gi.repository import Akc, AkcGtk, Gtk  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402
from akc_gi import rows, wait_for  # noqa: E402


path = sys.argv[1]
check("the minimal Python host is at most 30 lines", len(open(path).read().splitlines()) <= 30)
example = runpy.run_path(path, run_name="example")
source, window = example["source"], example["window"]
window.present()
widget = window.get_child()
check("the example shows its source in an AkcGtk.ChatWidget",
      isinstance(widget, AkcGtk.ChatWidget) and widget.get_source() == source)
composer = widget.get_composer()
check("the composer has the keyboard when the window opens",
      wait_for(lambda: window.get_focus() is not None and window.get_focus().is_ancestor(composer)))
messages = source.get_messages()
changes = []
messages.connect("items-changed", lambda _m, position, removed, added: changes.append((position, removed, added)))

composer.set_text("one two three")
check("the composer sends", composer.send())
check("the host answers with a streaming reply",
      wait_for(lambda: source.get_status() == Akc.ChatStatus.STREAMING and messages.get_n_items() == 2))
reply = messages.get_item(1)
check("the reply finishes",
      wait_for(lambda: source.get_status() == Akc.ChatStatus.IDLE))
check(f"the reply streamed word by word into one message ({reply.get_content()!r})",
      reply.get_content() == "You said: one two three" and reply.get_status() == Akc.MessageStatus.COMPLETE)
check(f"two appends are the only changes of the list: streaming text changes no item ({changes})",
      changes == [(0, 0, 1), (1, 0, 1)])
check("the transcript shows both",
      wait_for(lambda: rows(widget.get_view()) == ["one two three", "You said: one two three"]),
      rows(widget.get_view()))
snapshot = source.get_snapshot()
check("the edited state is a valid snapshot",
      snapshot is not None and Akc.controlled_snapshot_decode_value(snapshot)[0] is not None)

words = " ".join(f"w{i}" for i in range(200))
composer.set_text(words)
check("a long message is sent", composer.send())
second = None
check("its reply starts streaming",
      wait_for(lambda: messages.get_n_items() == 4 and len(messages.get_item(3).get_content().split()) >= 4))
second = messages.get_item(3)
check("Stop is pressed", composer.activate_action("composer.stop", None))
check("the host marks the reply stopped: complete, stopped, the chat idle",
      source.get_status() == Akc.ChatStatus.IDLE and second.get_stopped() and
      second.get_status() == Akc.MessageStatus.COMPLETE)
check("the stopped reply keeps what had arrived", len(second.get_content()) < len("You said: " + words))

window.destroy()
sys.exit(finish())
