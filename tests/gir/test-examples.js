// The GJS example host (examples/gjs/controlled-host.js), driven as a
// person would (TAP): loaded without its main loop, typed into, sent to,
// and stopped.
//
//   gjs test-examples.js EXAMPLES_GJS_DIR
imports.gi.versions.Akc = '1';
imports.gi.versions.AkcGtk = '1';
imports.gi.versions.Gtk = '4.0';
const {Akc, AkcGtk, GLib} = imports.gi;
const System = imports.system;

let count = 0;
let failed = 0;
function check(ok, description) {
    count++;
    if (!ok)
        failed++;
    print(`${ok ? 'ok' : 'not ok'} ${count} - ${description}`);
}

function waitFor(predicate, timeoutS = 30) {
    const context = GLib.MainContext.default();
    const deadline = GLib.get_monotonic_time() + timeoutS * 1000000;
    while (!predicate() && GLib.get_monotonic_time() < deadline) {
        if (!context.iteration(false))
            GLib.usleep(1000);
    }
    return predicate();
}

imports.searchPath.unshift(ARGV[0]);
const example = imports['controlled-host'];
const {source, window} = example;
window.present();
const widget = window.get_child();
check(widget instanceof AkcGtk.ChatWidget && widget.get_source() === source,
    'the example shows its source in an AkcGtk.ChatWidget');
const composer = widget.get_composer();
const messages = source.get_messages();
const changes = [];
messages.connect('items-changed', (_model, position, removed, added) => changes.push([position, removed, added].join()));

composer.set_text('one two three');
check(composer.send(), 'the composer sends');
check(waitFor(() => source.get_status() === Akc.ChatStatus.STREAMING && messages.get_n_items() === 2),
    'the host answers with a streaming reply');
const reply = messages.get_item(1);
check(waitFor(() => source.get_status() === Akc.ChatStatus.IDLE), 'the reply finishes');
check(reply.get_content() === 'You said: one two three' && reply.get_status() === Akc.MessageStatus.COMPLETE,
    `the reply streamed word by word into one message (${reply.get_content()})`);
check(changes.join(' ') === '0,0,1 1,0,1', `two appends are the only changes of the list (${changes.join(' ')})`);

const words = Array.from({length: 200}, (_, i) => `w${i}`).join(' ');
composer.set_text(words);
check(composer.send(), 'a long message is sent');
check(waitFor(() => messages.get_n_items() === 4 && messages.get_item(3).get_content().split(' ').length >= 4),
    'its reply starts streaming');
const second = messages.get_item(3);
check(composer.activate_action('composer.stop', null), 'Stop is pressed');
check(source.get_status() === Akc.ChatStatus.IDLE && second.get_stopped() &&
    second.get_status() === Akc.MessageStatus.COMPLETE, 'the host marks the reply stopped');
check(second.get_content().length < `You said: ${words}`.length, 'the stopped reply keeps what had arrived');

window.destroy();
print(`1..${count}`);
System.exit(failed > 0 ? 1 : 0);
