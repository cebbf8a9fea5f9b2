/**
 * The service signs `<amount>@<reference_no>` with the amount exactly as written in its JSON.
 * `JSON.parse` loses that text (`100.50` becomes 100.5), so this scanner walks the raw body and
 * returns the source text of one value. Like `JSON.parse`, the last of duplicate keys wins.
 * Any syntax error gives undefined: the caller then falls back to the parsed value.
 */
export function rawValueAt(text: string, path: readonly string[]): string | undefined {
	const scanner = new Scanner(text, path);
	try {
		scanner.skipSpace();
		scanner.value(0, true);
		scanner.skipSpace();
		return scanner.atEnd() ? scanner.found : undefined;
	} catch {
		// Not JSON this scanner understands: the parsed value is used instead.
		return undefined;
	}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const UNICODE_ESCAPE = /u[0-9a-fA-F]{4}/y;
const MAX_DEPTH = 64;

class Scanner {
	found: string | undefined;
	private pos = 0;

	constructor(
		private readonly text: string,
		private readonly path: readonly string[],
	) {}

	atEnd(): boolean {
		return this.pos === this.text.length;
	}

	skipSpace(): void {
		while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos])) this.pos++;
	}

	/** Reads one value; `onPath` says the keys so far match the first `depth` keys of the path. */
	value(depth: number, onPath: boolean): void {
		if (depth > MAX_DEPTH) throw new Error('too deep');
		const start = this.pos;
		const char = this.text[this.pos];
		if (char === '{') this.object(depth, onPath);
		else if (char === '[') this.array(depth);
		else if (char === '"') this.string();
		else if (char === 't' || char === 'f' || char === 'n') this.match(LITERAL);
		else this.match(NUMBER);
		if (onPath && depth === this.path.length) this.found = this.text.slice(start, this.pos);
	}

	private object(depth: number, onPath: boolean): void {
		this.pos++;
		this.skipSpace();
		if (this.text[this.pos] === '}') {
			this.pos++;
			return;
		}
		for (;;) {
			this.skipSpace();
			const key = JSON.parse(this.string()) as string;
			this.skipSpace();
			this.expect(':');
			this.skipSpace();
			this.value(depth + 1, onPath && depth < this.path.length && key === this.path[depth]);
			this.skipSpace();
			if (this.text[this.pos] === ',') {
				this.pos++;
				continue;
			}
			this.expect('}');
			return;
		}
	}

	private array(depth: number): void {
		this.pos++;
		this.skipSpace();
		if (this.text[this.pos] === ']') {
			this.pos++;
			return;
		}
		for (;;) {
			this.skipSpace();
			this.value(depth + 1, false);
			this.skipSpace();
			if (this.text[this.pos] === ',') {
				this.pos++;
				continue;
			}
			this.expect(']');
			return;
		}
	}

	/**
	 * A JSON string, returned with its quotes. Walked character by character: a raw control
	 * character (below U+0020) is not allowed inside a JSON string, and neither is a bad escape.
	 */
	private string(): string {
		const start = this.pos;
		this.expect('"');
		for (;;) {
			const char = this.text[this.pos];
			if (char === undefined || char.charCodeAt(0) < 0x20)
				throw new Error(`bad string at ${this.pos}`);
			this.pos++;
			if (char === '"') return this.text.slice(start, this.pos);
			if (char !== '\\') continue;
			const escape = this.text[this.pos];
			if (escape !== undefined && '"\\/bfnrt'.includes(escape)) this.pos++;
			else if (escape === 'u') this.match(UNICODE_ESCAPE);
			else throw new Error(`bad escape at ${this.pos}`);
		}
	}

	private match(pattern: RegExp): string {
		pattern.lastIndex = this.pos;
		const result = pattern.exec(this.text);
		if (!result) throw new Error(`unexpected input at ${this.pos}`);
		this.pos += result[0].length;
		return result[0];
	}

	private expect(char: string): void {
		if (this.text[this.pos] !== char) throw new Error(`expected ${char} at ${this.pos}`);
		this.pos++;
	}
}
