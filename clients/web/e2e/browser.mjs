// Headless Chromium for the browser tests: Debian's chromium (no browser
// download), with every background service off so it never waits on the
// network. Playwright gives each launch a fresh profile directory.
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.GAMEHOST_CHROMIUM || "/usr/bin/chromium";

export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}
