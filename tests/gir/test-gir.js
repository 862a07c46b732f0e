// Akc and AkcGtk from GJS through GObject Introspection (TAP).
imports.gi.versions.Akc = '1';
imports.gi.versions.AkcGtk = '1';
imports.gi.versions.Gtk = '4.0';
const {Akc, AkcGtk, GLib, Gtk} = imports.gi;
const System = imports.system;

let count = 0;
let failed = 0;
function check(ok, description) {
    count++;
    if (!ok)
        failed++;
    print(`${ok ? 'ok' : 'not ok'} ${count} - ${description}`);
}

function runUntilIdle(chat) {
    const context = GLib.MainContext.default();
    while (chat.get_status() === Akc.ChatStatus.STREAMING)
        context.iteration(true);
}

const adapter = Akc.EchoAdapter.new();
adapter.chunk_interval = 0;
const chat = Akc.Chat.new(adapter);
chat.send('from gjs');
runUntilIdle(chat);
const reply = chat.get_messages().get_item(1);
check(reply.get_content() === 'AgentsKit received: from gjs', 'Akc.Chat streams the echo reply');
check(reply.status === Akc.MessageStatus.COMPLETE, 'message status enum maps');

let refused = false;
try {
    chat.send('   ');
} catch (e) {
    refused = e.matches(Akc.chat_error_quark(), Akc.ChatError.EMPTY_INPUT);
}
check(refused, 'blank input throws Akc.ChatError.EMPTY_INPUT');

// The turn protocol: streamed snapshots through the cursor's incremental decoder.
const snapshot = (n, content) => (
    `{"protocol":"agentskit.chat.turn","version":1,"eventId":"e${n}","sessionId":"s1","turnId":"t1","sequence":${n},` +
    '"emittedAt":"2026-07-11T03:00Z","event":"server.turn.snapshot","payload":{"messages":[' +
    '{"id":"a","role":"user","content":"hi","status":"complete","createdAt":"2026-07-11T03:00:00.000Z"},' +
    `{"id":"b","role":"assistant","content":"${content}","status":"streaming","createdAt":"2026-07-11T03:00:01.000Z"}],` +
    '"status":"streaming","usage":{"promptTokens":1,"completionTokens":1,"totalTokens":2}}}');
const cursor = Akc.TurnCursor.new('s1');
const applied = [[1, 'x'], [2, 'xy'], [2, 'xy']].map(([n, c]) => cursor.apply_text(snapshot(n, c))[0]);
const records = Akc.turn_snapshot_messages(cursor.snapshot);
check(applied.join() === 'true,true,false' && records.map(r => r.get_content()).join('|') === 'hi|xy',
    'Akc.TurnCursor applies streamed snapshots; Akc.turn_snapshot_messages() gives their records');

// The history, from GJS: a conversation stored and read back.
function wait(start) {
    let result = null;
    start((_source, res) => {
        result = res;
    });
    const context = GLib.MainContext.default();
    while (result === null)
        context.iteration(true);
    return result;
}

const folder = GLib.dir_make_tmp('akc-gir-XXXXXX');
const memory = Akc.SqliteChatMemory.new_finish(
    wait(cb => Akc.SqliteChatMemory.new_async(`${folder}/history.sqlite3`, null, cb)));
memory.create_conversation_finish(wait(cb => memory.create_conversation_async('gjs', null, null, cb)));
memory.append_message_finish(wait(cb => memory.append_message_async('gjs', reply, null, cb)));
const loaded = memory.load_messages_finish(wait(cb => memory.load_messages_async('gjs', null, cb)));
check(loaded.get_n_items() === 1 && loaded.get_item(0).get_content() === reply.get_content() &&
    loaded.get_item(0).get_id() === reply.get_id(), 'Akc.SqliteChatMemory stores a message and reads it back');
for (const name of ['history.sqlite3', 'history.sqlite3-wal', 'history.sqlite3-shm'])
    GLib.unlink(`${folder}/${name}`);
GLib.rmdir(folder);

Gtk.init();
const composer = new AkcGtk.Composer({source: chat});
composer.set_text('typed');
check(chat.input === 'typed', 'the composer keeps the draft in the source input');
const row = new AkcGtk.MessageRow({message: reply});
check(row.get_text() === 'AgentsKit received: from gjs', 'AkcGtk.MessageRow shows its message');

print(`1..${count}`);
System.exit(failed > 0 ? 1 : 0);
