// Every public widget constructor of AkcGtk, called the way a GJS program
// calls it (TAP). Run with G_DEBUG=fatal-criticals: a constructor whose
// return value is annotated (transfer full) hands GJS a floating reference
// it then drops once too often, and the widget is finalized under it.
imports.gi.versions.Akc = '1';
imports.gi.versions.AkcGtk = '1';
imports.gi.versions.Gtk = '4.0';
imports.gi.versions.GIRepository = '2.0';
const {Akc, AkcGtk, GIRepository, GLib, GObject, Gtk} = imports.gi;
const System = imports.system;

let count = 0;
let failed = 0;
function check(ok, description) {
    count++;
    if (!ok)
        failed++;
    print(`${ok ? 'ok' : 'not ok'} ${count} - ${description}`);
}

function spin() {
    const context = GLib.MainContext.default();
    while (context.pending())
        context.iteration(false);
}

Gtk.init();

const FRAME = JSON.stringify({
    type: 'render_component', component: 'choice_list', instanceId: 'c1',
    props: {question: 'Pick one', options: [{id: 'a', label: 'A'}, {id: 'b', label: 'B'}]},
});

// One call per public widget constructor, as an application writes it.
const calls = {
    'akc_chat_view_new': () => AkcGtk.ChatView.new(),
    'akc_composer_new': () => AkcGtk.Composer.new(),
    'akc_message_row_new': () => AkcGtk.MessageRow.new(),
    'akc_component_view_new': () => AkcGtk.ComponentView.new(Akc.JsonValue.parse(FRAME), null),
    'akc_chat_widget_new': () => AkcGtk.ChatWidget.new(Akc.ControlledSource.new()),
    'akc_find_bar_new': () => AkcGtk.FindBar.new(),
};

// The constructors the typelib declares for widget classes.
const repo = GIRepository.Repository.get_default();
const declared = [];
for (let i = 0; i < repo.get_n_infos('AkcGtk'); i++) {
    const info = repo.get_info('AkcGtk', i);
    if (info.get_type() !== GIRepository.InfoType.OBJECT)
        continue;
    const gtype = GIRepository.registered_type_info_get_g_type(info);
    if (!GObject.type_is_a(gtype, Gtk.Widget.$gtype))
        continue;
    for (let m = 0; m < GIRepository.object_info_get_n_methods(info); m++) {
        const method = GIRepository.object_info_get_method(info, m);
        if (!(GIRepository.function_info_get_flags(method) & GIRepository.FunctionInfoFlags.IS_CONSTRUCTOR))
            continue;
        // Constructors of widgets (a list item factory is not one).
        const returned = GIRepository.type_info_get_interface(GIRepository.callable_info_get_return_type(method));
        if (returned === null || !GObject.type_is_a(GIRepository.registered_type_info_get_g_type(returned), Gtk.Widget.$gtype))
            continue;
        declared.push([GIRepository.function_info_get_symbol(method), method]);
    }
}

check(declared.length >= Object.keys(calls).length,
    `the typelib declares ${declared.length} widget constructors`);
for (const [symbol, method] of declared) {
    check(symbol in calls, `${symbol} is called by this test`);
    check(GIRepository.callable_info_get_caller_owns(method) === GIRepository.Transfer.NOTHING,
        `${symbol} returns (transfer none), a floating widget`);
}

for (const [symbol, call] of Object.entries(calls)) {
    // Made and dropped without a parent: the wrapper owns the only reference.
    for (let i = 0; i < 3; i++)
        call();
    System.gc();
    spin();

    // Kept by the program, shown in a window, taken out, shown again.
    let widget = call();
    check(widget instanceof Gtk.Widget, `${symbol} returns a Gtk.Widget`);
    const window = new Gtk.Window({default_width: 360, default_height: 480});
    window.set_child(widget);
    window.present();
    spin();
    window.set_child(null);
    System.gc();
    spin();
    check(widget.get_parent() === null && widget.get_width() >= 0,
        `${symbol}: the widget outlives its parent while the program holds it`);
    const box = new Gtk.Box();
    box.append(widget);
    window.set_child(box);
    spin();
    window.destroy();
    spin();
    System.gc();
    spin();
    check(widget.get_parent() === box, `${symbol}: the widget survives its window while the program holds it`);
    widget = null;
    System.gc();
    spin();
}

print(`1..${count}`);
System.exit(failed > 0 ? 1 : 0);
