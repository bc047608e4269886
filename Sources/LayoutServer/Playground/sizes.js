// Every size at once: devices and widths picked here, the current document drawn at each as
// one strip (POST /v1/render, the server's SVG: labels as the glyphs it measured), and the
// strip to download as SVG or PNG.

import { api, ApiProblem } from "./api.js";

export class SizeStrip {
  constructor({ picker, widths, button, strip, svgLink, pngLink, onProblem }) {
    Object.assign(this, { picker, widths, button, strip, svgLink, pngLink, onProblem });
    this.document = null;
    button.addEventListener("click", () => this.draw());
  }

  setDevices(devices) {
    this.picker.replaceChildren(...devices.map((d) => new Option(`${d.name} ${d.orientation} (${d.width} × ${d.height})`, `${d.id}:${d.orientation}`)));
  }

  // The sizes picked: each device as the server knows it, each width at the root's own height.
  sizes() {
    const root = (this.document?.views || []).find((v) => !v.parent && v.frame);
    const height = root ? root.frame.height : 600;
    const devices = [...this.picker.selectedOptions].map((o) => {
      const [device, orientation] = o.value.split(":");
      return { device, orientation };
    });
    const widths = this.widths.value.split(/[\s,]+/).map(Number).filter((w) => w > 0).map((width) => ({ width, height }));
    return [...devices, ...widths];
  }

  async draw() {
    const sizes = this.sizes();
    if (!this.document || sizes.length === 0) return;
    try {
      const svg = await api.render(this.document, sizes, "svg");
      // As an image: its own stylesheet then applies inside it, where the page's CSP would
      // refuse it inline.
      const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
      const image = new Image();
      image.src = url;
      image.alt = `the document at ${sizes.length} sizes`;
      this.strip.replaceChildren(image);
      this.svgLink.href = url;
      const png = await api.render(this.document, sizes, "png");
      this.pngLink.href = await new Promise((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result);
        reader.readAsDataURL(png);
      });
      this.svgLink.hidden = this.pngLink.hidden = false;
    } catch (e) {
      if (e instanceof ApiProblem) { this.onProblem(e.problem); return; }
      throw e;
    }
  }
}
