// The header's language switch: English or Français, each named in its own
// language; the choice is kept in this browser (i18n.ts).
import { h } from "./elements";
import { LANGUAGES, chooseLanguage, language, tr, type Language } from "./i18n";

export function languageSwitch(): HTMLSelectElement {
  const select = h("select", { id: "language", class: "language-switch", "aria-label": tr("Language"),
    title: tr("Language") },
  LANGUAGES.map(({ tag, name }) => h("option", { value: tag, lang: tag, selected: tag === language() }, name)));
  select.addEventListener("change", () => chooseLanguage(select.value as Language));
  return select;
}
