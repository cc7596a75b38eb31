// Telling a player their turn has come when they look elsewhere: the tab's
// title, an optional chime, and a browser notification when they allowed it.
import { h } from "./elements";
import { tr } from "./i18n";

const SOUND_KEY = "gamehost.turn-sound";
const CHIME_HZ = [660, 880];

export class TurnSignal {
  private myTurn = false;
  private audio?: AudioContext;
  private readonly sound = h("input", { type: "checkbox", id: "turn-sound",
    checked: window.localStorage.getItem(SOUND_KEY) === "on", onchange: () => this.toggleSound() });
  private readonly notifyButton = h("button", { type: "button", id: "turn-notify", hidden: true,
    onclick: () => void this.askToNotify() }, tr("Notify me when it is my turn"));
  readonly controls = h("span", { class: "turn-signal" },
    h("label", {}, this.sound, tr(" chime on my turn")), " ", this.notifyButton);

  constructor(private readonly matchId: string) {
    this.notifyButton.hidden = !("Notification" in window) || Notification.permission !== "default";
  }

  /** The page's title and, when the turn has just come, the chime and the notification. */
  show(title: string, myTurn: boolean, ending = ""): void {
    document.title = ending ? `${ending} · ${title} · gamehost` : myTurn ? tr("● Your turn · {title} · gamehost", { title })
      : `${title} · gamehost`;
    const arrived = myTurn && !this.myTurn;
    this.myTurn = myTurn;
    if (!arrived) return;
    if (this.sound.checked) this.chime();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification(tr("Your turn"), { body: tr("{title}: it is your move.", { title }), tag: `gamehost-${this.matchId}` });
    }
  }

  private toggleSound(): void {
    window.localStorage.setItem(SOUND_KEY, this.sound.checked ? "on" : "off");
    if (this.sound.checked) this.chime(); // a sample, and the click lets the page play sound later
  }

  private async askToNotify(): Promise<void> {
    await Notification.requestPermission();
    this.notifyButton.hidden = Notification.permission !== "default";
  }

  private chime(): void {
    try {
      this.audio ??= new AudioContext();
      const start = this.audio.currentTime;
      CHIME_HZ.forEach((hertz, index) => {
        const tone = this.audio!.createOscillator();
        const volume = this.audio!.createGain();
        tone.frequency.value = hertz;
        volume.gain.setValueAtTime(0.15, start + index * 0.15);
        volume.gain.exponentialRampToValueAtTime(0.001, start + index * 0.15 + 0.3);
        tone.connect(volume).connect(this.audio!.destination);
        tone.start(start + index * 0.15);
        tone.stop(start + index * 0.15 + 0.3);
      });
    } catch {
      // No sound device, or the browser refuses audio: the title still says it.
    }
  }
}
