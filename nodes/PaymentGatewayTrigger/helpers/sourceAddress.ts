/**
 * The optional source-address allow-list. Entries are IPv4 or IPv6 addresses, or IPv4 ranges in
 * CIDR form (`43.198.4.0/24`), separated by commas, spaces or new lines. The caller's address is
 * the one n8n determined (`req.ip`): behind a reverse proxy, set n8n's N8N_PROXY_HOPS so it is the
 * caller's and not the proxy's. X-Forwarded-For is never read here: anyone can write it.
 */
export interface AllowList {
	entries: string[];
	/** Entries that are not an address or range: the list is then refused as a whole. */
	invalid: string[];
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+(%[0-9a-z]+)?$/i;

export function parseAllowList(text: string): AllowList {
	const entries: string[] = [];
	const invalid: string[] = [];
	for (const part of text.split(/[\s,;]+/)) {
		const entry = part.trim().toLowerCase();
		if (entry === '') continue;
		if (isAddress(entry) || isIpv4Range(entry)) entries.push(entry);
		else invalid.push(part.trim());
	}
	return { entries, invalid };
}

/** `::ffff:1.2.3.4` (an IPv4 caller on a dual-stack socket) compares as `1.2.3.4`. */
export function normaliseAddress(address: string | undefined): string | undefined {
	if (!address) return undefined;
	const lower = address.trim().toLowerCase();
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
	return mapped ? mapped[1] : lower;
}

export function isAllowed(list: AllowList, address: string | undefined): boolean {
	const caller = normaliseAddress(address);
	if (!caller) return false;
	const expanded = expandIpv6(caller);
	if (expanded === undefined) return false;
	return list.entries.some((entry) =>
		entry.includes('/') ? inIpv4Range(entry, caller) : expandIpv6(entry) === expanded,
	);
}

function isAddress(entry: string): boolean {
	return IPV4.test(entry) || (entry.includes(':') && IPV6.test(entry) && expandIpv6(entry) !== undefined);
}

function isIpv4Range(entry: string): boolean {
	const [base, bits, extra] = entry.split('/');
	return extra === undefined && IPV4.test(base) && /^(3[0-2]|[12]?\d)$/.test(bits ?? '');
}

function ipv4ToNumber(address: string): number {
	return address.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
}

function inIpv4Range(range: string, caller: string): boolean {
	if (!IPV4.test(caller)) return false;
	const [base, bits] = range.split('/');
	const size = 2 ** (32 - Number(bits));
	return Math.floor(ipv4ToNumber(base) / size) === Math.floor(ipv4ToNumber(caller) / size);
}

/** IPv4 stays as it is; IPv6 becomes eight 4-digit groups so `::1` and `0:0:...:1` compare equal. */
function expandIpv6(address: string): string | undefined {
	if (!address.includes(':')) return address;
	const bare = address.replace(/%.*$/, '');
	const halves = bare.split('::');
	if (halves.length > 2) return undefined;
	const head = halves[0] ? halves[0].split(':') : [];
	const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
	const missing = 8 - head.length - tail.length;
	if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
	const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
	if (groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return undefined;
	return groups.map((group) => group.padStart(4, '0')).join(':');
}
