// The search box's requests on the RPC helper: a newer step supersedes an older one (its late
// answer is dropped), a query's count is accepted from any of its steps but never from an earlier
// query, and closing drops everything in flight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchRequests } from '../../../webview/searchRequests';
import type { SearchMessage, SearchRequestQuery, SearchResultMessage } from '../../../src/protocol/webview';

const query = (text: string): SearchRequestQuery => ({ text, mode: 'plain', caseSensitive: false, mapIndex: 0, unsearchable: [] });
const result = (searchId: number): SearchResultMessage => ({ kind: 'searchResult', searchId }) as SearchResultMessage;
const count = (searchId: number) => ({ kind: 'searchCount' as const, searchId, matches: 3, histogram: [], range: [0, 1] as const });

test('a newer step supersedes the older one; only its answer is taken', async () => {
  const sent: SearchMessage[] = [];
  const r = new SearchRequests((m) => sent.push(m));
  const first = r.step(query('MPI'), 1, 0, 0.5);
  const second = r.step(query('MPI'), 1, 0, 0.5);
  assert.equal(first.fresh, true);
  assert.equal(second.fresh, false);
  assert.equal(sent[0]!.fromTime, 0.5, 'a new query starts at the given time');
  assert.equal(sent[1]!.fromTime, undefined, 'later steps go on from the last match');
  await assert.rejects(first.reply);
  assert.equal(r.result(result(sent[0]!.searchId)), false, 'late answer to the superseded step dropped');
  assert.equal(r.result(result(sent[1]!.searchId)), true);
  assert.equal((await second.reply).searchId, sent[1]!.searchId);
});

test("counts: any step of the current query, never an earlier query's", () => {
  const sent: SearchMessage[] = [];
  const r = new SearchRequests((m) => sent.push(m));
  void r.step(query('a'), 1, 0, 0).reply.catch(() => undefined);
  const oldQuery = sent[0]!.searchId;
  void r.step(query('b'), 1, 0, 0).reply.catch(() => undefined);
  void r.step(query('b'), 1, 0, 0).reply.catch(() => undefined);
  assert.equal(r.acceptsCount(count(oldQuery)), false);
  assert.equal(r.acceptsCount(count(sent[1]!.searchId)), true);
  assert.equal(r.acceptsCount(count(sent[2]!.searchId)), true);
  assert.equal(r.acceptsCount(count(sent[2]!.searchId + 1)), false, 'not from a step not yet sent');
});

test('close drops the step in flight and makes the next query fresh', async () => {
  const sent: SearchMessage[] = [];
  const r = new SearchRequests((m) => sent.push(m));
  const s = r.step(query('x'), 1, 0, 0);
  r.close();
  await assert.rejects(s.reply);
  assert.equal(r.result(result(sent[0]!.searchId)), false);
  assert.equal(r.acceptsCount(count(sent[0]!.searchId)), false);
  assert.equal(r.step(query('x'), -1, 0, 0).fresh, true);
});
