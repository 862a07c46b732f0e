#!/usr/bin/python3
# test-provider-attachments.py: images and text files sent with a message
# (issue 15 item 3): AkcAttachment's checks, and the exact request bodies
# each provider gets (OpenAI image_url data URLs, Ollama images, Anthropic
# image blocks), through a Python host chatting with AkcChat against
# loopback servers; a model that takes no images is refused before
# anything is sent (TAP).
#
# SPDX-License-Identifier: MIT

import base64
import json
import os
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gi  # noqa: E402

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402

import provider_server as ps  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402


def spin_until(predicate, seconds=20):
    context = GLib.MainContext.default()
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        context.iteration(False)
        if not predicate():
            time.sleep(0.002)
    return predicate()


png = ps.png


def jpeg_header(width, height):
    """SOI, an APP0 segment, then the SOF0 that gives the size."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof0 + b"\xff\xd9"


def webp_lossless_header(width, height):
    bits = (width - 1) | ((height - 1) << 14)
    payload = b"\x2f" + struct.pack("<I", bits) + b"\x00" * 8
    chunk = b"VP8L" + struct.pack("<I", len(payload)) + payload
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk


def attachment_error(make, *args):
    try:
        make(*args)
    except GLib.Error as e:
        return e
    return None


def B(data):
    return GLib.Bytes.new(data)


# ------------------------------------------------------------------
# AkcAttachment
# ------------------------------------------------------------------

image = Akc.Attachment.new_image("shots/dog.png", B(png(3, 2)))
check("an image: its kind, type and size come from its header; the name loses its folders",
      image.get_kind() == Akc.AttachmentKind.IMAGE and image.get_mime_type() == "image/png"
      and (image.get_width(), image.get_height()) == (3, 2) and image.get_name() == "dog.png")
check("an image's data URL and Base64 are the bytes",
      image.dup_data_url() == "data:image/png;base64," + base64.b64encode(png(3, 2)).decode()
      and base64.b64decode(image.dup_base64()) == png(3, 2))

jpeg = Akc.Attachment.new_for_bytes("photo.bin", B(jpeg_header(640, 480)))
webp = Akc.Attachment.new_for_bytes("x.webp", B(webp_lossless_header(2048, 17)))
check("JPEG and WebP are known by their header, not their name",
      jpeg.get_mime_type() == "image/jpeg" and (jpeg.get_width(), jpeg.get_height()) == (640, 480)
      and webp.get_mime_type() == "image/webp" and (webp.get_width(), webp.get_height()) == (2048, 17))

e = attachment_error(Akc.Attachment.new_image, "big.png", B(png(2049, 1)))
check("an image over 2048 px on a side is refused (downscale it first), with its size",
      e is not None and e.matches(Akc.attachment_error_quark(), Akc.AttachmentError.TOO_LARGE)
      and "2049" in e.message and "2048" in e.message, e)
e = attachment_error(Akc.Attachment.new_image, "fake.png", B(b"\x89PNG\r\n\x1a\n" + b"\x00" * 4))
check("an image whose header does not decode is refused",
      e is not None and e.matches(Akc.attachment_error_quark(), Akc.AttachmentError.INVALID), e)

text = Akc.Attachment.new_for_bytes("notes.txt", B("Grüße\nline two".encode()))
check("a UTF-8 file is text",
      text.get_kind() == Akc.AttachmentKind.TEXT and text.get_mime_type() == "text/plain"
      and text.get_data().get_data() == "Grüße\nline two".encode())
e = attachment_error(Akc.Attachment.new_for_bytes, "report.pdf", B(b"%PDF-1.7\n\xe2\x82\x00\xff"))
check("a file that is neither an image nor UTF-8 text is refused by name",
      e is not None and e.matches(Akc.attachment_error_quark(), Akc.AttachmentError.UNSUPPORTED)
      and "report.pdf" in e.message, e)
e = attachment_error(Akc.Attachment.new_text, "big.log", B(b"a" * (1024 * 1024 + 1)))
check("a text file over 1 MiB is refused; 1 MiB exactly is taken",
      e is not None and e.matches(Akc.attachment_error_quark(), Akc.AttachmentError.TOO_LARGE)
      and Akc.Attachment.new_text("ok.log", B(b"a" * (1024 * 1024))) is not None, e)
e = attachment_error(Akc.Attachment.new_text, "nul.txt", B(b"a\x00b"))
check("text with U+0000 is not text",
      e is not None and e.matches(Akc.attachment_error_quark(), Akc.AttachmentError.NOT_UTF8), e)
odd = Akc.Attachment.new_text("../etc/a\nb\x1b[31m.txt", B(b"x"))
check("a name keeps no folders and no control characters", odd.get_name() == "a b [31m.txt", odd.get_name())

# ------------------------------------------------------------------
# Each provider's request body
# ------------------------------------------------------------------

server = ps.ProviderServer()
png_b64 = base64.b64encode(png(3, 2)).decode()
file_text = "File: notes.txt\n\nGrüße\nline two\n(end of notes.txt)"


def chat_with(kind, path, responder, accepts_images=True):
    base = server.base + ("/v1" if kind == Akc.ProviderKind.OPENAI else "")
    adapter = Akc.ProviderAdapter.new(kind, base, "vision-model")
    adapter.set_connect_timeout(5000)
    adapter.set_accepts_images(accepts_images)
    server.add("POST", path, responder)
    return Akc.Chat.new(adapter)


def send(chat, words, attachments):
    ok = chat.send_with_attachments(words, attachments)
    spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING)
    return ok


server.reset()
chat = chat_with(Akc.ProviderKind.OPENAI, "/v1/chat/completions", ps.openai_text(["A grey dog."]))
send(chat, "What is this?", [image, text])
body = server.last().json
check("openai: the text, then the attachments in order: the image as an image_url data URL, the file as text with its name",
      body["messages"] == [{"role": "user", "content": [
          {"type": "text", "text": "What is this?"},
          {"type": "image_url", "image_url": {"url": "data:image/png;base64," + png_b64}},
          {"type": "text", "text": file_text}]}],
      json.dumps(body["messages"], ensure_ascii=False)[:2000])
question = chat.get_messages().get_item(0)
check("the person's message keeps its attachments, in order",
      question.get_attachments().get_n_items() == 2
      and question.get_attachments().get_item(0).get_name() == "dog.png"
      and chat.get_messages().get_item(1).get_content() == "A grey dog.")

server.add("POST", "/v1/chat/completions", ps.openai_text(["Yes."]))
send(chat, "And now?", [])
body = server.last().json
check("openai: a later turn sends the earlier attachments again, and plain text stays a string",
      body["messages"][0]["content"][1]["type"] == "image_url"
      and body["messages"][2] == {"role": "user", "content": "And now?"},
      json.dumps(body["messages"], ensure_ascii=False)[:2000])

server.reset()
chat = chat_with(Akc.ProviderKind.OLLAMA, "/api/chat", ps.ollama_text(["A dog."]))
send(chat, "What is this?", [image, text])
body = server.last().json
check("ollama: the file follows the text, the image is Base64 in images",
      body["messages"] == [{"role": "user", "content": "What is this?\n\n" + file_text, "images": [png_b64]}],
      json.dumps(body["messages"], ensure_ascii=False)[:2000])

server.reset()
chat = chat_with(Akc.ProviderKind.ANTHROPIC, "/v1/messages", ps.anthropic_text(["A dog."]))
send(chat, "What is this?", [image, text])
body = server.last().json
check("anthropic: an image block (base64, media type), then the file, then the text",
      body["messages"] == [{"role": "user", "content": [
          {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png_b64}},
          {"type": "text", "text": file_text},
          {"type": "text", "text": "What is this?"}]}],
      json.dumps(body["messages"], ensure_ascii=False)[:2000])

server.reset()
chat = chat_with(Akc.ProviderKind.ANTHROPIC, "/v1/messages", ps.anthropic_text(["Seen."]))
ok = send(chat, "", [jpeg])
body = server.last().json if server.last() else None
check("an image alone, with no words, is sent",
      ok and body is not None and body["messages"][0]["content"] == [
          {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg",
                                       "data": base64.b64encode(jpeg_header(640, 480)).decode()}}],
      body)
try:
    chat.send_with_attachments("  ", [])
    refused = None
except GLib.Error as err:
    refused = err
check("blank words and no attachment are still nothing to send",
      refused is not None and refused.matches(Akc.chat_error_quark(), Akc.ChatError.EMPTY_INPUT), refused)

try:
    chat.send_with_attachments("many", [text] * 9)
    refused = None
except GLib.Error as err:
    refused = err
check("more than 8 attachments on a message are refused, and nothing is sent",
      refused is not None and refused.matches(Akc.attachment_error_quark(), Akc.AttachmentError.TOO_LARGE)
      and "8" in refused.message and chat.get_messages().get_n_items() == 2, refused)

# A model that takes no images: refused before anything is sent.
server.reset()
chat = chat_with(Akc.ProviderKind.OLLAMA, "/api/chat", ps.ollama_text(["unused"]), accepts_images=False)
send(chat, "What is this?", [image])
error = chat.get_error()
check("a model that takes no images: the turn ends with PROVIDER_ATTACHMENT_REFUSED naming the model, nothing sent",
      chat.get_status() == Akc.ChatStatus.ERROR and error is not None
      and error.get_code() == "PROVIDER_ATTACHMENT_REFUSED" and "vision-model" in error.get_message()
      and "image" in error.get_message() and server.last() is None,
      (chat.get_status(), error and error.get_message(), server.last()))

server.reset()
chat = chat_with(Akc.ProviderKind.OLLAMA, "/api/chat", ps.ollama_text(["Read it."]), accepts_images=False)
send(chat, "Summarise", [text])
body = server.last().json if server.last() else None
check("text files still go to a model that takes no images",
      chat.get_status() == Akc.ChatStatus.IDLE and body is not None
      and body["messages"] == [{"role": "user", "content": "Summarise\n\n" + file_text}], body)

# The conversation goes on with a model that takes no images (the person
# switched to it, or said it takes none): the images an earlier model read
# are left out, the model told one was there; a new image is refused.
note = "[The image \u201cdog.png\u201d was attached here; it is not sent to this model.]"
for kind, path, reply in ((Akc.ProviderKind.OPENAI, "/v1/chat/completions", ps.openai_text),
                          (Akc.ProviderKind.OLLAMA, "/api/chat", ps.ollama_text),
                          (Akc.ProviderKind.ANTHROPIC, "/v1/messages", ps.anthropic_text)):
    server.reset()
    chat = chat_with(kind, path, reply(["A dog."]))
    send(chat, "What is this?", [image])
    server.add("POST", path, reply(["Woof."]))
    chat.get_adapter().set_accepts_images(False)
    send(chat, "And now?", [])
    body = server.last().json if server.last() else None
    sent = json.dumps(body, ensure_ascii=False) if body else ""
    check(f"{kind.value_nick}: a model without images gets the earlier image left out, with a note in its place",
          chat.get_status() == Akc.ChatStatus.IDLE and body is not None
          and png_b64 not in sent and note in sent and "What is this?" in sent and "And now?" in sent,
          (chat.get_status(), chat.get_error() and chat.get_error().get_message(), sent[:1500]))
    server.reset()
    send(chat, "And this one?", [image])
    error = chat.get_error()
    check(f"{kind.value_nick}: a new image to that model is refused, nothing sent",
          chat.get_status() == Akc.ChatStatus.ERROR and error is not None
          and error.get_code() == "PROVIDER_ATTACHMENT_REFUSED" and server.last() is None,
          (chat.get_status(), error and error.get_message(), server.last()))

probe = Akc.ProviderAdapter.new(Akc.ProviderKind.OLLAMA, server.base, "m")
caps = json.loads(probe.get_capabilities().to_canonical())
probe.set_accepts_images(False)
caps_without = json.loads(probe.get_capabilities().to_canonical())
check("the adapter declares the attachments it sends, so hosts offer only those",
      caps["attachments"] == {"images": True, "text": True}
      and caps_without["attachments"] == {"images": False, "text": True}, (caps, caps_without))

server.close()
sys.exit(finish())
