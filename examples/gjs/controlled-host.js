#!/usr/bin/env gjs
// A controlled host: it owns the chat, echoes each message word by word,
// stops on Stop.
imports.gi.versions.Gtk = '4.0';
imports.gi.versions.AkcGtk = '1';
const {Akc, AkcGtk, GLib, Gtk} = imports.gi;
const {MessageRole: Role, MessageStatus: Status, ChatStatus: Chat} = Akc;

function onSend(source, text) {
    const n = source.get_messages().get_n_items();
    const words = text.split(/\s+/).filter(word => word.length > 0);
    source.append_message(Akc.MessageRecord.new_text(`u${n}`, Role.USER, text, Status.COMPLETE, null));
    source.append_message(Akc.MessageRecord.new_text(`a${n}`, Role.ASSISTANT, 'You said:', Status.STREAMING, null));
    source.set_status(Chat.STREAMING);
    // A word every 50 ms, until the words run out or the person stops the reply.
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
        if (source.get_status() === Chat.STREAMING && words.length > 0)
            return source.append_text(`a${n}`, ` ${words.shift()}`);
        if (source.get_status() === Chat.STREAMING) {
            source.set_message_status(`a${n}`, Status.COMPLETE);
            source.set_status(Chat.IDLE);
        }
        return GLib.SOURCE_REMOVE;
    });
}

Gtk.init();
var source = Akc.ControlledSource.new();
source.set_session_id('gjs-host');
source.connect('send', onSend);
source.connect('stop', () => source.mark_stopped());
var window = new Gtk.Window({title: 'Controlled host', default_width: 480, default_height: 640});
window.set_child(AkcGtk.ChatWidget.new(source));

// Run as a program (a test imports this file and drives the window itself).
if (imports.system.programInvocationName.endsWith('controlled-host.js')) {
    const loop = new GLib.MainLoop(null, false);
    window.connect('close-request', () => loop.quit());
    window.present();
    loop.run();
}
