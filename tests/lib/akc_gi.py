"""What the GIR test scripts share: waiting on the default main context with
one deadline, and looking through a GTK widget tree.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from akc_gi import wait_for
"""

from gi.repository import GLib


def wait_for(predicate, timeout_s=30):
    """Iterates the default main context until @predicate holds or
    @timeout_s seconds have passed; returns what @predicate says last."""
    context = GLib.MainContext.default()
    deadline = GLib.get_monotonic_time() + timeout_s * 1_000_000
    while not predicate() and GLib.get_monotonic_time() < deadline:
        context.iteration(False) or GLib.usleep(1000)
    return predicate()


def run_until_idle(chat):
    """Iterates the default main context while @chat streams."""
    from gi.repository import Akc

    context = GLib.MainContext.default()
    while chat.get_status() == Akc.ChatStatus.STREAMING:
        context.iteration(True)


def descendants(widget):
    """Every widget below @widget, depth first."""
    child = widget.get_first_child()
    while child is not None:
        yield child
        yield from descendants(child)
        child = child.get_next_sibling()


def button_labelled(widget, text):
    """The first mapped Gtk.Button below @widget with a Gtk.Label reading
    @text, or None."""
    from gi.repository import Gtk

    for candidate in descendants(widget):
        if isinstance(candidate, Gtk.Button) and candidate.get_mapped() and any(
                isinstance(label, Gtk.Label) and label.get_label() == text for label in descendants(candidate)):
            return candidate
    return None


def rows(widget):
    """The texts of the mapped AkcGtk.MessageRow widgets below @widget, in order."""
    from gi.repository import AkcGtk

    return [child.get_text() for child in descendants(widget)
            if isinstance(child, AkcGtk.MessageRow) and child.get_mapped()]
