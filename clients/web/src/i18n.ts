// The page's own words in the reader's language. Each message id is the
// English sentence itself with {name} placeholders, as the host's and the
// plugins' gettext catalogues have them; locales/<lang>.json maps each id to
// its translation. tr() accepts only ids of the French table, so a sentence
// without a French translation does not compile. Numbers and dates go
// through Intl in the chosen language.
import french from "./locales/fr.json";

export type MessageId = keyof typeof french;
export type Language = "en" | "fr";

/** The languages the page has, each named in itself (the switch shows these names as they are). */
export const LANGUAGES: readonly { tag: Language; name: string }[] = [
  { tag: "en", name: "English" },
  { tag: "fr", name: "Français" },
];

const LANGUAGE_KEY = "gamehost.language";
const TABLES: Record<Language, Partial<Record<MessageId, string>>> = { en: {}, fr: french };
const listeners: (() => void)[] = [];

/** The best of the page's languages for the browser's (navigator.languages), English when none fits. */
export function negotiatedLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split("-")[0];
    const found = LANGUAGES.find((language) => language.tag === base);
    if (found) return found.tag;
  }
  return "en";
}

function initialLanguage(): Language {
  const kept = window.localStorage.getItem(LANGUAGE_KEY);
  const known = LANGUAGES.find((language) => language.tag === kept);
  return known ? known.tag : negotiatedLanguage(navigator.languages ?? [navigator.language]);
}

let current: Language = initialLanguage();

export function language(): Language {
  return current;
}

/** Chooses the page's language, keeps it in this browser, and tells the listeners (they draw the page again). */
export function chooseLanguage(tag: Language): void {
  window.localStorage.setItem(LANGUAGE_KEY, tag);
  if (tag === current) return;
  current = tag;
  applyLanguage();
  for (const listener of listeners) listener();
}

export function onLanguageChange(listener: () => void): void {
  listeners.push(listener);
}

/** <html lang> follows the chosen language (screen readers pronounce the page in it). */
export function applyLanguage(): void {
  document.documentElement.lang = current;
}

/** The message `id` in the chosen language, its {name} placeholders filled (numbers formatted for it). */
export function tr(id: MessageId, args: Record<string, string | number | bigint> = {}): string {
  const message = TABLES[current][id] || id;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!(name in args)) return whole;
    const value = args[name];
    return typeof value === "string" ? value : formatNumber(value);
  });
}

/** `one` or `other` by the chosen language's plural rules for `count` (French says "0 joueur", English "0 players"). */
export function plural(count: number, one: MessageId, other: MessageId, args: Record<string, string | number> = {})
  : string {
  const form = new Intl.PluralRules(current).select(count);
  return tr(form === "one" ? one : other, { count, ...args });
}

export function formatNumber(value: number | bigint): string {
  return new Intl.NumberFormat(current, { useGrouping: false, maximumFractionDigits: 2 }).format(value);
}

/** A list of names joined as the language does: "Ann and Bob", « Ann et Bob » (or "2 or 4", « 2 ou 4 »). */
export function formatList(items: string[], type: "conjunction" | "disjunction" = "conjunction"): string {
  return new Intl.ListFormat(current, { style: "long", type }).format(items);
}

export function formatTime(date: Date): string {
  return date.toLocaleTimeString(current);
}

/** An ordinal place: "2nd" in English, « 2e » in French. */
export function ordinal(place: number): string {
  if (current === "fr") return place === 1 ? "1er" : `${place}e`;
  const rule = new Intl.PluralRules("en", { type: "ordinal" }).select(place);
  return `${place}${{ one: "st", two: "nd", few: "rd" }[rule as "one" | "two" | "few"] ?? "th"}`;
}

/** The `locale` field a request that returns words carries: the page's language. */
export function requestLocale(): string {
  return current;
}
