/**
 * The search box's requests to the host on the RPC helper: each step (next/previous, or a new
 * query) is a call whose answer is the host's `searchResult`; a newer step supersedes an older one
 * (its late answer is dropped). The count of a query (`searchCount`) outlives the steps: it is
 * accepted from any step of the current query, never from an earlier query. Pure (no DOM).
 */
import { ReasonedError, RpcChannel, type RpcFailureReason } from '../src/protocol/rpc';
import type { SearchCountMessage, SearchMessage, SearchRequestQuery, SearchResultMessage } from '../src/protocol/webview';

export class SearchRequests {
  private readonly calls = new RpcChannel<SearchResultMessage>((f) => new ReasonedError<RpcFailureReason | string>(f.reason, f.message));
  /** The query in force (JSON) and the id of its first step: counts from before it are stale. */
  private queryKey = '';
  private queryFirstId = Infinity;
  private lastId = 0;

  constructor(private readonly post: (m: SearchMessage) => void) {}

  /**
   * Sends a step; `fresh` tells whether the query changed (then it starts at `fromTime`). The reply
   * rejects when a newer step or `close` superseded it.
   */
  step(
    query: SearchRequestQuery,
    direction: 1 | -1,
    generation: number,
    fromTime: number,
  ): { readonly fresh: boolean; readonly reply: Promise<SearchResultMessage> } {
    const key = JSON.stringify(query);
    const fresh = key !== this.queryKey;
    this.queryKey = key;
    const reply = this.calls.call(
      (searchId) => {
        this.lastId = searchId;
        if (fresh) this.queryFirstId = searchId;
        this.post({ kind: 'search', searchId, generation, query, direction, ...(fresh ? { fromTime } : {}) });
      },
      { key: 'step' },
    );
    return { fresh, reply };
  }

  /** The host's answer to a step; false when stale (superseded or after close). */
  result(m: SearchResultMessage): boolean {
    return this.calls.answer(m.searchId, m);
  }

  /** Whether a count belongs to the current query. */
  acceptsCount(m: SearchCountMessage): boolean {
    return this.queryKey !== '' && m.searchId >= this.queryFirstId && m.searchId <= this.lastId;
  }

  /** The box closed: every step in flight is dropped and the next query is fresh. */
  close(): void {
    this.calls.failAll({ reason: 'cancelled', message: 'search closed' });
    this.queryKey = '';
    this.queryFirstId = Infinity;
  }
}
