// The console's confirmation: a modal dialog that names what an action changes, with Cancel focused first
// (Enter on a stray focus must not abort a match).
import { h } from "./elements";
import { tr } from "./i18n";
import { problemOf, problemPanel } from "./errors";

/** Asks `question`; resolves true when the admin confirms, false when they cancel or close the dialog. */
export function confirmAction(question: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const cancel = h("button", { type: "button", class: "admin-confirm-cancel" }, tr("Cancel"));
    const confirm = h("button", { type: "button", class: "admin-confirm-ok" }, confirmLabel);
    const dialog = h("dialog", { class: "admin-confirm", "aria-labelledby": "admin-confirm-question" },
      h("p", { id: "admin-confirm-question" }, question), h("p", {}, cancel, " ", confirm));
    const close = (answer: boolean) => { dialog.close(); dialog.remove(); resolve(answer); };
    cancel.addEventListener("click", () => close(false));
    confirm.addEventListener("click", () => close(true));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); close(false); });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

/** A button that, once confirmed, runs `action`; a refusal is shown in `problems`, success calls `done`. */
export function confirmedButton(label: string, question: string, action: () => Promise<unknown>,
  problems: HTMLElement, done: () => void, attributes: Record<string, string> = {}): HTMLButtonElement {
  const button = h("button", { type: "button", ...attributes }, label);
  button.addEventListener("click", async () => {
    if (!(await confirmAction(question, label))) return;
    button.disabled = true;
    problems.replaceChildren();
    try {
      await action();
      done();
    } catch (error) {
      problems.replaceChildren(problemPanel(problemOf(error), label));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
