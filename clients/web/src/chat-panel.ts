// The match's chat (docs/protocol.md, "Chat"), a small collapsible panel of
// its own: it reads the chat from the match log, follows it on a WatchMatch
// stream of its own (with_chat and chat_only: no views), and sends through SendChat. Each message
// of another user has Report and Mute; an admin also sees Hide and Ban.
// Players see the spectators' channel once the match is over; the host
// decides that, the panel shows what it is sent. It needs nothing from the
// page but the match's name and the seat token, so layouts may put it
// anywhere.
import { ChatChannel, EventKind, GameHostAdmin, type ChatMessage } from "@gamehost/client";
import { createClient } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { gamehost, transport } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf } from "./errors";
import { language, tr } from "./i18n";
import { signedInOrNull } from "./identity";

const MAX_CHARS = 500; // the host's bound on one message
const RETRY_MS = [1000, 2000, 4000, 8000];

const admin = createClient(GameHostAdmin, transport);

export interface ChatPanelHost {
  /** "matches/{id}". */
  readonly name: string;
  /** The page's seat token now ("" for a spectator). */
  token(): string;
  /** A private match's invitation code, "" for none. */
  readonly invitationCode?: string;
}

export class ChatPanel {
  readonly element = h("details", { id: "chat", class: "chat-panel", open: true });
  private readonly count = h("span", { class: "chat-count muted" });
  private readonly list = h("ol", { id: "chat-messages", class: "chat-messages", "aria-live": "polite",
    "aria-label": tr("Chat messages") });
  private readonly input = h("input", { type: "text", id: "chat-input", maxlength: MAX_CHARS,
    "aria-label": tr("Your message"), placeholder: tr("Say something to the match") });
  private readonly form = h("form", { class: "chat-form", onsubmit: (event: Event) => {
    event.preventDefault();
    void this.send();
  } }, this.input, h("button", { type: "submit", id: "chat-send" }, tr("Send")));
  private readonly note = h("p", { id: "chat-note", class: "chat-note muted", "aria-live": "polite" });
  private readonly messages = new Map<bigint, ChatMessage>();
  private readonly muted = new Set<string>();
  private readonly reported = new Set<bigint>();
  private me = "";
  private isAdmin = false;
  private stream?: AbortController;
  private stopped = false;

  constructor(private readonly page: ChatPanelHost, private readonly live = true) {
    replaceChildren(this.element, h("summary", {}, tr("Chat"), " ", this.count), this.list, this.note, this.form);
  }

  async start(): Promise<void> {
    const identity = await signedInOrNull();
    this.me = identity?.subject ? `players/${identity.subject}` : "";
    this.isAdmin = identity?.roles.includes("admin") ?? false;
    this.form.hidden = !this.me;
    if (!this.me) this.note.textContent = tr("Sign in to write in the chat.");
    if (this.me) {
      const relations = await gamehost.getChatRelations({}).catch(() => undefined);
      for (const player of [...(relations?.muted ?? []), ...(relations?.blocked ?? [])]) this.muted.add(player);
    }
    try {
      const log = await gamehost.getMatchLog({ name: this.page.name, playerToken: this.page.token(), pageSize: 1,
        invitationCode: this.page.invitationCode ?? "" });
      for (const message of log.chat) this.messages.set(message.sequence, message);
      this.render();
      if (this.live && !log.complete) void this.follow();
    } catch (error) {
      this.note.textContent = problemOf(error).advice;
    }
  }

  private async reload(): Promise<void> {
    const log = await gamehost.getMatchLog({ name: this.page.name, playerToken: this.page.token(), pageSize: 1,
      invitationCode: this.page.invitationCode ?? "" });
    for (const message of log.chat) this.messages.set(message.sequence, message);
    this.render();
  }

  stop(): void {
    this.stopped = true;
    this.stream?.abort();
  }

  /** The chat as it comes, on a stream of the panel's own; a broken stream is opened again, after the last message. */
  private async follow(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt += 1) {
      this.stream = new AbortController();
      try {
        const match = await gamehost.getMatch({ name: this.page.name, invitationCode: this.page.invitationCode ?? "" });
        const last = [...this.messages.keys()].reduce((a, b) => (a > b ? a : b), 0n);
        for await (const event of gamehost.watchMatch({ name: this.page.name, playerToken: this.page.token(),
          afterVersion: match.version, withChat: true, chatOnly: true, chatAfterSequence: last,
          invitationCode: this.page.invitationCode ?? "" }, { signal: this.stream.signal })) {
          attempt = 0;
          if (event.kind !== EventKind.CHAT || !event.chat) continue;
          this.messages.set(event.chat.sequence, event.chat);
          this.render();
        }
        // The match is over: players may now read the spectators' channel too.
        await this.reload();
        return;
      } catch {
        if (this.stopped) return;
        await new Promise((resolve) => window.setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      }
    }
  }

  private async send(): Promise<void> {
    const text = this.input.value.trim();
    if (!text) return;
    try {
      const sent = await gamehost.sendChat({ name: this.page.name, text, playerToken: this.page.token(),
        invitationCode: this.page.invitationCode ?? "" });
      this.input.value = "";
      this.note.textContent = "";
      this.messages.set(sent.sequence, sent);
      this.render();
    } catch (error) {
      const problem = problemOf(error);
      this.note.textContent = problem.retryAfterSeconds !== undefined
        ? tr("You are writing too fast: wait {seconds} s, then send again.", { seconds: Math.ceil(problem.retryAfterSeconds) })
        : problem.advice || problem.message;
    }
  }

  private async act(work: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await work();
      this.note.textContent = done;
    } catch (error) {
      const problem = problemOf(error);
      this.note.textContent = problem.advice || problem.message;
    }
    this.render();
  }

  private render(): void {
    const shown = [...this.messages.values()].sort((a, b) => (a.sequence < b.sequence ? -1 : 1))
      .filter((message) => !this.muted.has(message.sender));
    this.count.textContent = `(${shown.length})`;
    replaceChildren(this.list, shown.map((message) => this.line(message)));
  }

  private line(message: ChatMessage): HTMLElement {
    const mine = message.sender === this.me;
    const when = message.time ? timestampDate(message.time).toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" }) : "";
    const words = message.hidden && !this.isAdmin
      ? h("em", { class: "chat-hidden" }, tr("(hidden by a moderator)"))
      : h("span", { class: "chat-text" }, message.text, message.hidden ? [" ", h("em", {}, tr("(hidden)"))] : null);
    const subject = message.sender.replace(/^players\//, "");
    const actions = mine || !this.me ? [] : [
      h("button", { type: "button", class: "chat-report", disabled: this.reported.has(message.sequence),
        onclick: () => void this.act(async () => {
          await gamehost.reportChat({ name: this.page.name, sequence: message.sequence, reason: "",
            invitationCode: this.page.invitationCode ?? "" });
          this.reported.add(message.sequence);
        }, tr("Reported: the moderators will look at it.")) },
      this.reported.has(message.sequence) ? tr("Reported") : tr("Report")),
      h("button", { type: "button", class: "chat-mute", onclick: () => void this.act(async () => {
        await gamehost.muteUser({ player: message.sender });
        this.muted.add(message.sender);
      }, tr("Muted: you no longer see {name}'s messages.", { name: message.senderName })) }, tr("Mute")),
    ];
    if (this.isAdmin && !mine) {
      actions.push(
        h("button", { type: "button", class: "chat-hide", disabled: message.hidden, onclick: () => void this.act(
          async () => { this.messages.set(message.sequence, await admin.hideMessage({ name: this.page.name,
            sequence: message.sequence })); }, tr("Hidden for everyone.")) }, tr("Hide")),
        h("button", { type: "button", class: "chat-ban", onclick: () => void this.act(
          () => admin.banUser({ player: message.sender, reason: "" }),
          tr("{name} is banned from this host.", { name: message.senderName })) }, tr("Ban")));
    }
    return h("li", { class: "chat-message", "data-sequence": String(message.sequence), "data-sender": subject,
      "data-channel": message.channel === ChatChannel.SPECTATORS ? "spectators" : "players",
      "data-hidden": String(message.hidden) },
    h("span", { class: "chat-time muted" }, when), " ",
    h("strong", { class: "chat-sender" }, message.senderName), message.channel === ChatChannel.SPECTATORS
      ? [" ", h("span", { class: "chat-channel muted" }, tr("(spectator)"))] : null, ": ",
    words, actions.length ? h("span", { class: "chat-actions" }, actions) : null);
  }
}
