/**
 * A rejection stops the run the moment it arrives: while the node explains it (a payout's refused
 * channel is explained from the account's channel list, which may be slow), no later row starts.
 * Rows before the rejected one still go out, as they would one at a time.
 */
import { ENDPOINTS } from '../../nodes/shared/transport/endpoints';
import { moneyOperationsPerFile } from '../harness/moneyOperations';

const ops = moneyOperationsPerFile('stop on rejection');
const CHANNEL_LIST = ENDPOINTS.getPayoutChannels.path;

let counter = 0;

/**
 * The rejected row is the last of the first rows the workers take (row `concurrency`), so which
 * worker sends what does not matter: the rows before it take 1.5 s, it is refused at once, and
 * explaining the refusal takes 3 s. Before the fix, the workers freed after 1.5 s sent later rows.
 */
describe.each([8, 10])(
	'Payout Create: 20 rows, concurrency %i, a 422 on the last row of the first batch, no continue-on-fail',
	(concurrency) => {
		const op = () => ops['Payout Create'];
		const rejected = concurrency - 1;

		test('no later row reaches the service while the refusal is explained; every row before it is created', async () => {
			const run = ++counter;
			const refs = Array.from({ length: 20 }, (_, i) => `STOP-${run}-${i + 1}`);
			const rows = refs.map((ref, i) =>
				op().row(ref, 10, i === rejected ? op().rejected.extra : {}),
			);
			const { gw } = op().setup;
			for (const ref of refs.slice(0, rejected)) {
				gw.faults.add({
					method: 'POST',
					path: op().createPath,
					referenceNo: ref,
					mode: 'latency',
					latencyMs: 1500,
				});
			}
			gw.faults.add({ method: 'GET', path: CHANNEL_LIST, mode: 'latency', latencyMs: 3000 });

			const result = await op().run(op().parameters({ concurrency }), rows);

			expect(result.error?.message).toBe(`${op().rejected.explained!.error} (row ${rejected + 1})`);
			const attempts = gw.stats().attemptsByReference;
			expect(refs.slice(rejected + 1).filter((ref) => attempts[ref] !== undefined)).toEqual([]);
			expect(refs.slice(0, rejected).filter((ref) => op().record(ref) === undefined)).toEqual([]);
			expect(attempts[refs[rejected]]).toBe(1);
			expect(gw.stats().requestsByPath[`GET ${CHANNEL_LIST}`]).toBe(1);
		}, 20_000);
	},
);
