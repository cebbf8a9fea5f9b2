/**
 * The optional source-address allow-list. Entries are IPv4 or IPv6 addresses (IPv4-mapped ones
 * like `::ffff:43.198.4.7` included) or CIDR ranges of either (`43.198.4.0/24`, `2001:db8::/32`),
 * separated by commas, spaces or new lines. Every address is compared as 16 bytes, an IPv4 one
 * as its IPv4-mapped IPv6 form, so `43.198.4.7` and `::ffff:43.198.4.7` are the same caller.
 * The caller's address is the one n8n determined (`req.ip`): behind a reverse proxy, set n8n's
 * N8N_PROXY_HOPS so it is the caller's and not the proxy's. X-Forwarded-For is never read here:
 * anyone can write it.
 */
export interface AllowList {
	entries: string[];
	/** Entries that are not an address or range: the list is then refused as a whole. */
	invalid: string[];
}

interface Range {
	bytes: number[];
	prefixBits: number;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const IPV4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

export function parseAllowList(text: string): AllowList {
	const entries: string[] = [];
	const invalid: string[] = [];
	for (const part of text.split(/[\s,;]+/)) {
		const entry = part.trim().toLowerCase();
		if (entry === '') continue;
		if (toRange(entry)) entries.push(entry);
		else invalid.push(part.trim());
	}
	return { entries, invalid };
}

/** Why the list cannot be used, in words for the activation error; undefined when it can. */
export function allowListProblem(text: string): string | undefined {
	const { invalid } = parseAllowList(text);
	if (invalid.length === 0) return undefined;
	return `Allowed IP Addresses holds ${invalid.length === 1 ? 'an entry that is' : 'entries that are'} not an IP address or CIDR range: ${invalid.join(', ')}`;
}

/** `::ffff:1.2.3.4` (an IPv4 caller on a dual-stack socket) reads as `1.2.3.4`. */
export function normaliseAddress(address: string | undefined): string | undefined {
	if (!address) return undefined;
	const lower = address.trim().toLowerCase();
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
	return mapped ? mapped[1] : lower;
}

export function isAllowed(list: AllowList, address: string | undefined): boolean {
	const caller = address === undefined ? undefined : toBytes(address.trim().toLowerCase());
	if (!caller) return false;
	return list.entries.some((entry) => {
		const range = toRange(entry);
		return range !== undefined && inRange(range, caller);
	});
}

function toRange(entry: string): Range | undefined {
	const [address, bits, extra] = entry.split('/');
	if (extra !== undefined) return undefined;
	const bytes = toBytes(address);
	if (!bytes) return undefined;
	const ipv4 = IPV4.test(address);
	if (bits === undefined) return { bytes, prefixBits: 128 };
	if (!/^\d{1,3}$/.test(bits)) return undefined;
	const prefix = Number(bits);
	if (prefix > (ipv4 ? 32 : 128)) return undefined;
	return { bytes, prefixBits: ipv4 ? prefix + 96 : prefix };
}

function inRange(range: Range, caller: number[]): boolean {
	for (let bit = 0; bit < range.prefixBits; bit += 8) {
		const take = Math.min(8, range.prefixBits - bit);
		const mask = (0xff << (8 - take)) & 0xff;
		if ((range.bytes[bit / 8] & mask) !== (caller[bit / 8] & mask)) return false;
	}
	return true;
}

/** 16 bytes for an IPv4 (as IPv4-mapped) or IPv6 address; undefined when it is neither. */
function toBytes(address: string): number[] | undefined {
	if (IPV4.test(address)) return [...IPV4_MAPPED_PREFIX, ...address.split('.').map(Number)];
	if (!address.includes(':')) return undefined;
	const bare = address.replace(/%[0-9a-z._-]+$/, '');
	const halves = bare.split('::');
	if (halves.length > 2) return undefined;
	const head = halves[0] ? halves[0].split(':') : [];
	const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
	// An IPv4 tail (`::ffff:1.2.3.4`) stands for the last two groups.
	const last = halves.length === 2 ? tail : head;
	const ipv4Tail = last.length > 0 && IPV4.test(last[last.length - 1]) ? last.pop() : undefined;
	const tailBytes = ipv4Tail === undefined ? [] : ipv4Tail.split('.').map(Number);
	const groups = head.length + tail.length + tailBytes.length / 2;
	const missing = 8 - groups;
	if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
	if (![...head, ...tail].every((group) => HEX_GROUP.test(group))) return undefined;
	const toGroupBytes = (group: string) => {
		const value = parseInt(group, 16);
		return [value >> 8, value & 0xff];
	};
	return [
		...head.flatMap(toGroupBytes),
		...Array<number>(halves.length === 2 ? missing * 2 : 0).fill(0),
		...tail.flatMap(toGroupBytes),
		...tailBytes,
	];
}
