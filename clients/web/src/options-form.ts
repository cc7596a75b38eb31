// A game's options as form inputs, from its JSON Schema: enums become selects,
// booleans checkboxes, integers and numbers number inputs, strings text inputs.
// Anything else is edited as JSON text, so every schema stays usable.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { h } from "./elements";
import { tr } from "./i18n";

export interface OptionsForm {
  element: HTMLElement;
  /** The values now in the inputs; throws Error naming the option on unreadable input. */
  values(): JsonObject;
  /** Puts these values into the inputs (e.g. a variant's options over the defaults). */
  show(values: JsonObject): void;
  /** Marks the inputs named by BadRequest violations ("options.<name>"); clears the others. */
  markViolations(violations: { field: string; description: string }[]): void;
}

interface OptionInput {
  name: string;
  row: HTMLElement;
  read(): JsonValue | undefined;
  write(value: JsonValue | undefined): void;
  note: HTMLElement;
}

export function optionsForm(schema: JsonObject | undefined, defaults: JsonObject | undefined): OptionsForm {
  const properties = (schema?.properties ?? {}) as Record<string, JsonObject>;
  const inputs = Object.entries(properties).map(([name, property]) => optionInput(name, property));
  const element = h("fieldset", { class: "options" }, h("legend", {}, tr("Options")),
    inputs.length ? inputs.map((input) => input.row) : h("p", { class: "muted" }, tr("This game has no options.")));
  const form: OptionsForm = {
    element,
    values() {
      const entries = inputs.map((input) => [input.name, input.read()] as const);
      return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as JsonObject;
    },
    show(values) {
      for (const input of inputs) input.write(values[input.name] ?? properties[input.name].default);
    },
    markViolations(violations) {
      for (const input of inputs) {
        const mine = violations.filter((violation) => violation.field === `options.${input.name}`);
        input.note.textContent = mine.map((violation) => violation.description).join(" ");
        input.row.classList.toggle("invalid", mine.length > 0);
      }
    },
  };
  form.show(defaults ?? {});
  return form;
}

function optionInput(name: string, property: JsonObject): OptionInput {
  const description = typeof property.description === "string" ? property.description : "";
  const note = h("span", { class: "option-violation" });
  const id = `option-${name}-${Math.random().toString(36).slice(2, 8)}`;
  const row = (control: HTMLElement) => {
    if (description) control.setAttribute("aria-describedby", `${id}-description`);
    return h("div", { class: "option" },
      h("label", { for: id }, typeof property.title === "string" ? property.title : labelOf(name)), control,
      description ? h("small", { class: "option-description", id: `${id}-description` }, description) : null, note);
  };

  if (Array.isArray(property.enum)) {
    const choices = property.enum;
    const select = h("select", { id, name: `option:${name}` },
      choices.map((choice, index) => h("option", { value: String(index) }, String(choice))));
    return {
      name, note, row: row(select),
      read: () => choices[Number(select.value)],
      write: (value) => {
        const index = choices.findIndex((choice) => JSON.stringify(choice) === JSON.stringify(value));
        select.value = String(Math.max(index, 0));
      },
    };
  }
  if (property.type === "boolean") {
    const checkbox = h("input", { id, type: "checkbox", name: `option:${name}` });
    return {
      name, note, row: row(checkbox),
      read: () => checkbox.checked,
      write: (value) => { checkbox.checked = value === true; },
    };
  }
  if (property.type === "integer" || property.type === "number") {
    const input = h("input", {
      id, type: "number", name: `option:${name}`,
      min: typeof property.minimum === "number" ? property.minimum : undefined,
      max: typeof property.maximum === "number" ? property.maximum : undefined,
      step: property.type === "integer" ? 1 : "any",
    });
    return {
      name, note, row: row(input),
      read: () => {
        const value = input.valueAsNumber;
        if (Number.isNaN(value)) throw new Error(tr("Option {name}: enter a number.", { name }));
        return value;
      },
      write: (value) => { input.value = typeof value === "number" ? String(value) : ""; },
    };
  }
  if (property.type === "string") {
    const input = h("input", { id, type: "text", name: `option:${name}` });
    return {
      name, note, row: row(input),
      read: () => input.value,
      write: (value) => { input.value = typeof value === "string" ? value : ""; },
    };
  }
  const textarea = h("textarea", { id, name: `option:${name}`, rows: 2 });
  return {
    name, note, row: row(textarea),
    read: () => {
      if (!textarea.value.trim()) return undefined;
      try {
        return JSON.parse(textarea.value) as JsonValue;
      } catch {
        throw new Error(tr("Option {name}: enter valid JSON.", { name }));
      }
    },
    write: (value) => { textarea.value = value === undefined ? "" : JSON.stringify(value); },
  };
}

/** A label for an option whose schema has no title: its key in words ("stall_turns" reads "Stall turns"). */
function labelOf(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
