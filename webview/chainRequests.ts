/**
 * Dependence-chain requests to the host on the RPC helper: a call posts `requestChain` and its
 * answer is the host's `chain`; a newer request supersedes an older one (its late answer is
 * dropped), so the chain shown is always the one asked for last. Pure (no DOM).
 */
import { ReasonedError, RpcChannel, type RpcFailureReason } from '../src/protocol/rpc';
import type { ChainMessage, DrawableRef, RequestChainMessage } from '../src/protocol/webview';

export class ChainRequests {
  private readonly calls = new RpcChannel<ChainMessage>((f) => new ReasonedError<RpcFailureReason | string>(f.reason, f.message));

  constructor(private readonly post: (m: RequestChainMessage) => void) {}

  request(ref: DrawableRef, generation: number, direction: RequestChainMessage['direction']): Promise<ChainMessage> {
    return this.calls.call((chainId) => this.post({ kind: 'requestChain', chainId, generation, ref, direction }), { key: 'chain' });
  }

  /** The host's answer; false when stale (superseded). */
  answer(m: ChainMessage): boolean {
    return this.calls.answer(m.chainId, m);
  }
}
