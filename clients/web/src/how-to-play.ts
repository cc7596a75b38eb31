// "How to play": a game's rules for a newcomer (Game.howToPlay, Markdown in
// the page's language), in a dialog opened from the lobby's game card and
// from the match page, before and during a match.
//
// The Markdown comes from a plugin, so it is rendered by this small renderer
// of the subset the plugin guide allows (paragraphs, headings, numbered and
// bulleted lists, fenced code blocks for text diagrams, **bold**, *italic*,
// `code`), building nodes with text content only: no string of the plugin is
// ever parsed as HTML, so raw HTML in it shows as text and cannot inject
// anything. A full Markdown library plus a sanitiser would accept far more
// than rules texts need, and every construct it accepts is one more to keep safe.
import type { Game } from "@gamehost/client";
import { append, h } from "./elements";
import { tr } from "./i18n";

const INLINE = /\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`/g;

/** One line's inline Markdown (bold, italic, code) as nodes; anything else as plain text. */
function inline(text: string): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) nodes.push(document.createTextNode(text.slice(last, at)));
    const [, bold, italic, code] = match;
    if (bold !== undefined) nodes.push(h("strong", {}, bold));
    else if (italic !== undefined) nodes.push(h("em", {}, italic));
    else nodes.push(h("code", {}, code));
    last = at + match[0].length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

const ORDERED = /^\s*\d+[.)]\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*)$/;

/** The subset of Markdown a rules text uses, as DOM nodes (never through innerHTML). */
export function renderRules(markdown: string): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  let paragraph: string[] = [];
  let list: HTMLOListElement | HTMLUListElement | null = null;
  const flush = () => {
    if (paragraph.length) append(out, h("p", {}, inline(paragraph.join(" "))));
    paragraph = [];
    list = null;
  };
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    if (line.trimStart().startsWith("```")) {
      flush();
      const code: string[] = [];
      for (index += 1; index < lines.length && !lines[index].trimStart().startsWith("```"); index += 1) {
        code.push(lines[index]);
      }
      append(out, h("pre", { class: "rules-diagram" }, h("code", {}, code.join("\n"))));
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    const ordered = ORDERED.exec(line);
    const bullet = BULLET.exec(line);
    if (heading) {
      flush();
      append(out, h("h4", {}, inline(heading[2])));
    } else if (ordered || bullet) {
      const wanted = ordered ? "OL" : "UL";
      if (paragraph.length) flush();
      if (!list || list.tagName !== wanted) {
        list = ordered ? h("ol", {}) : h("ul", {});
        append(out, list);
      }
      append(list, h("li", {}, inline((ordered ?? bullet)![1])));
    } else if (list && /^\s+/.test(line)) {
      append(list.lastElementChild!, " ", inline(line.trim()));  // a list item's continuation line
    } else {
      list = null;
      paragraph.push(line.trim());
    }
  }
  flush();
  return out;
}

/** A "How to play" button and the dialog it opens, for one game at a time (set with `show`). */
export class HowToPlay {
  readonly button: HTMLButtonElement;
  private readonly dialog: HTMLDialogElement;
  private readonly heading = h("h3", { id: "how-to-play-title" });
  private readonly body = h("div", { class: "how-to-play-text" });

  constructor(game?: Game) {
    this.button = h("button", { type: "button", class: "how-to-play-button", hidden: true,
      onclick: () => this.dialog.showModal() }, tr("How to play"));
    this.dialog = h("dialog", { class: "how-to-play", "aria-labelledby": "how-to-play-title" },
      this.heading, this.body,
      h("form", { method: "dialog" }, h("button", { type: "submit", class: "how-to-play-close" }, tr("Close"))));
    if (game) this.show(game);
  }

  /** The button and dialog for `game`; the button stays hidden for a game that ships no rules text. */
  show(game: Game | undefined): void {
    const text = game?.howToPlay ?? "";
    this.button.hidden = !text;
    this.button.dataset.game = game?.id ?? "";
    this.heading.textContent = game ? tr("How to play {game}", { game: game.title }) : "";
    this.body.replaceChildren(renderRules(text));
  }

  /** The button and its dialog, to place together in a page. */
  get elements(): HTMLElement[] {
    return [this.button, this.dialog];
  }
}
