import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TemplateEngine } from '../lib/template-engine.js';

const TEMPLATE_NAME = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/i;
const USES_LAYOUT_PARTIAL = /\{\{#?>\s*layout\b/;

interface View {
  render: HandlebarsTemplateDelegate;
  /** The page wraps itself with {{#> layout}}…{{/layout}}; otherwise it is rendered into layout's {{{body}}}. */
  wrapsItself: boolean;
}

/**
 * Storefront templates: templates/storefront/<name>.hbs, layout.hbs around every page, and
 * templates/storefront/partials/<name>.hbs as partials. Compiled once per process.
 */
export class Views {
  private readonly cache = new Map<string, View>();
  private partialsLoaded = false;

  constructor(
    private readonly folder: string,
    private readonly engine: TemplateEngine,
  ) {}

  exists(name: string): boolean {
    return TEMPLATE_NAME.test(name) && existsSync(join(this.folder, `${name}.hbs`));
  }

  render(name: string, locals: Record<string, unknown>): string {
    this.loadPartials();
    const view = this.view(name);
    const html = view.render(locals);
    return view.wrapsItself ? html : this.view('layout').render({ ...locals, body: html });
  }

  private view(name: string): View {
    let view = this.cache.get(name);
    if (!view) {
      if (!this.exists(name)) throw new Error(`storefront template "${name}" does not exist under ${this.folder}`);
      const source = readFileSync(join(this.folder, `${name}.hbs`), 'utf8');
      view = { render: this.engine.compile(source), wrapsItself: USES_LAYOUT_PARTIAL.test(source) };
      this.cache.set(name, view);
    }
    return view;
  }

  private loadPartials(): void {
    if (this.partialsLoaded) return;
    this.engine.registerPartial('layout', readFileSync(join(this.folder, 'layout.hbs'), 'utf8'));
    const partials = join(this.folder, 'partials');
    if (existsSync(partials)) {
      for (const file of readdirSync(partials).filter((f) => f.endsWith('.hbs')))
        this.engine.registerPartial(file.slice(0, -'.hbs'.length), readFileSync(join(partials, file), 'utf8'));
    }
    this.partialsLoaded = true;
  }
}
