// Where gi-docgen's links into other namespaces lead.
baseURLs = [
  ['GLib', 'https://docs.gtk.org/glib/'],
  ['GObject', 'https://docs.gtk.org/gobject/'],
  ['Gio', 'https://docs.gtk.org/gio/'],
  ['Json', 'https://gnome.pages.gitlab.gnome.org/json-glib/'],
  ['Gdk', 'https://docs.gtk.org/gdk4/'],
  ['Gsk', 'https://docs.gtk.org/gsk4/'],
  ['Gtk', 'https://docs.gtk.org/gtk4/'],
  ['Akc', '../Akc-1/'],
]
