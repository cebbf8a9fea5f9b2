/** The trigger's pure helpers: raw amount text, callback reading, allow-list parsing. */
import { readCallback } from '../../nodes/shared/callbacks/payload';
import { rawValueAt } from '../../nodes/shared/callbacks/rawJson';
import { isAllowed, parseAllowList } from '../../nodes/PaymentGatewayTrigger/helpers/sourceAddress';

describe('rawValueAt', () => {
	test.each([
		['{"data":{"amount":100.50}}', ['data', 'amount'], '100.50'],
		['{ "data" : { "x" : "amount", "amount" : 1e2 } }', ['data', 'amount'], '1e2'],
		['{"amount":1,"data":{"amount":2}}', ['amount'], '1'],
		['{"data":{"amount":1,"amount":2.0}}', ['data', 'amount'], '2.0'],
		['{"data":{"nested":{"amount":9}},"x":[{"amount":8}]}', ['data', 'amount'], undefined],
		['{"d\\u0061ta":{"amount":3.10}}', ['data', 'amount'], '3.10'],
		['{"data":{"amount":"7.00"}}', ['data', 'amount'], '"7.00"'],
		['{"data":{"amount":100.50}', ['data', 'amount'], undefined],
		['{"data":{"amount":01}}', ['data', 'amount'], undefined],
		['{"data":{"amount":1}} trailing', ['data', 'amount'], undefined],
		// A raw control character inside a string is not JSON; an escaped one is.
		['{"data":{"note":"a\u0001b","amount":4}}', ['data', 'amount'], undefined],
		['{"data":{"note":"a\\u0001\\n\\"b","amount":4}}', ['data', 'amount'], '4'],
		['{"data":{"note":"a\\qb","amount":4}}', ['data', 'amount'], undefined],
	])('%s', (text, path, expected) => {
		expect(rawValueAt(text, path)).toBe(expected);
	});
});

describe('readCallback: the amount texts a signature may cover', () => {
	const read = (text: string) => {
		const outcome = readCallback({
			headers: {},
			rawBody: Buffer.from(text),
			body: JSON.parse(text),
		});
		if (!outcome.ok) throw new Error(outcome.reason);
		return outcome.callback;
	};
	test('as written first, then the plain and two-decimal forms of the same number', () => {
		expect(
			read('{"data":{"reference_no":"R","amount":100.50,"status":"completed"}}').signedAmounts,
		).toEqual(['100.50', '100.5']);
		expect(
			read('{"data":{"reference_no":"R","amount":100,"status":"completed"}}').signedAmounts,
		).toEqual(['100', '100.00']);
	});
	test('never a rounded amount', () => {
		expect(
			read('{"reference_no":"R","amount":100.005,"status":"completed"}').signedAmounts,
		).toEqual(['100.005']);
	});
	test('a raw text that is not the parsed amount is not used (duplicate "data" keys)', () => {
		const callback = read(
			'{"data":{"amount":100},"data":{"reference_no":"R","amount":5000,"status":"completed"}}',
		);
		expect(callback.amount).toBe(5000);
		expect(callback.signedAmounts).toEqual(['5000', '5000.00']);
	});
});

describe('allow-list', () => {
	test('parses addresses, IPv4 ranges and reports the rest', () => {
		expect(
			parseAllowList(
				' 43.198.4.7,18.166.179.109\n18.166.252.124 ; ::1, 10.0.0.0/8, host.example, 300.1.1.1',
			),
		).toEqual({
			entries: ['43.198.4.7', '18.166.179.109', '18.166.252.124', '::1', '10.0.0.0/8'],
			invalid: ['host.example', '300.1.1.1'],
		});
	});
	test('IPv4-mapped entries and CIDR ranges of both families', () => {
		const list = parseAllowList(
			'::ffff:43.198.4.7, 2001:db8::/32, ::ffff:10.1.0.0/112, 192.168.0.0/16',
		);
		expect(list.invalid).toEqual([]);
		expect(
			['43.198.4.7', '::ffff:43.198.4.7', '2001:db8:ffff::1', '10.1.200.3', '192.168.77.1'].map(
				(a) => isAllowed(list, a),
			),
		).toEqual([true, true, true, true, true]);
		expect(
			['43.198.4.8', '2001:db9::1', '10.2.0.1', '192.169.0.1', '::1'].map((a) =>
				isAllowed(list, a),
			),
		).toEqual([false, false, false, false, false]);
		expect(parseAllowList('1.2.3.4/33, ::/129, 1.2.3.4::, ::ffff:1.2.3.4/1/2').invalid).toEqual([
			'1.2.3.4/33',
			'::/129',
			'1.2.3.4::',
			'::ffff:1.2.3.4/1/2',
		]);
	});
	test('matches IPv4-mapped IPv6 callers and equivalent IPv6 spellings', () => {
		const list = parseAllowList('43.198.4.7, 0:0:0:0:0:0:0:1');
		expect(isAllowed(list, '::ffff:43.198.4.7')).toBe(true);
		expect(isAllowed(list, '::1')).toBe(true);
		expect(isAllowed(list, '43.198.4.8')).toBe(false);
		expect(isAllowed(list, undefined)).toBe(false);
		expect(isAllowed(list, 'garbage:::')).toBe(false);
	});
});
