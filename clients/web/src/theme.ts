// Light or dark: the system's choice (prefers-color-scheme) unless the player
// picked one with the header's toggle, kept in this browser.
import { h } from "./elements";
import { tr } from "./i18n";

type Theme = "auto" | "light" | "dark";
const THEME_KEY = "gamehost.theme";
const NEXT: Record<Theme, Theme> = { auto: "dark", dark: "light", light: "auto" };
const LABEL: Record<Theme, () => string> = {
  auto: () => tr("Theme: system"), dark: () => tr("Theme: dark"), light: () => tr("Theme: light"),
};

function storedTheme(): Theme {
  const stored = window.localStorage.getItem(THEME_KEY);
  return stored === "light" || stored === "dark" ? stored : "auto";
}

function apply(theme: Theme): void {
  if (theme === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/** Applies the kept theme and returns the header button that cycles system, dark and light. */
export function themeToggle(): HTMLButtonElement {
  let theme = storedTheme();
  apply(theme);
  const button = h("button", { type: "button", id: "theme-toggle", class: "theme-toggle",
    title: tr("Switch between the system's colours, dark and light") }, LABEL[theme]());
  button.addEventListener("click", () => {
    theme = NEXT[theme];
    if (theme === "auto") window.localStorage.removeItem(THEME_KEY);
    else window.localStorage.setItem(THEME_KEY, theme);
    apply(theme);
    button.textContent = LABEL[theme]();
  });
  return button;
}
