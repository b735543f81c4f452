package io.ferry.plan;

import io.ferry.store.KeyOrder;
import io.ferry.store.Shard;
import java.io.Serializable;
import java.util.List;

/**
 * Which keys a plan may decide while the listing goes on ({@code plan.copy-while-listing}): those no key still to be
 * listed can change the decision of. A key's decision ({@link Triage#decide}) depends on its own object, the
 * destination's object at its name (listed whole before the source) and, where keys are paths, on whether any key
 * lies under it ("a" beside "a/b"). So a key listed in a round is settled when every key under it and "/" was listed in
 * that same round: that block of the key space lies inside one of the round's shards and outside every piece the round
 * left for later ones. Conservative: a key it cannot prove settled waits for the whole plan. Pure.
 */
public final class Settled {
  private Settled() {}

  /** A round of a listing: the shards it listed and the pieces of them it left for later rounds. */
  public record Round(int index, List<Shard> listed, List<Shard> left) implements Serializable {
    public Round {
      listed = List.copyOf(listed);
      left = List.copyOf(left);
    }
  }

  /**
   * Whether {@code key} (a full key of the source) was listed in {@code round} and so was every key under it. Never for
   * a key with a character at or above U+D800: servers that order by UTF-16 units (S3Proxy) and those that order by
   * code points (AWS) disagree about where such a key lies against a shard's bounds; below it they agree.
   */
  public static boolean settled(String key, Round round) {
    for (int i = 0; i < key.length(); i++) if (key.charAt(i) >= '\uD800') return false;
    return listedIn(key, round) && blockListedIn(key + "/", round);
  }

  static boolean listedIn(String key, Round round) {
    if (round.listed().stream().noneMatch(s -> s.contains(key))) return false;
    return round.left().stream().noneMatch(s -> s.contains(key));
  }

  /** Whether every key that starts with {@code block} was listed in {@code round}: none can come later. */
  static boolean blockListedIn(String block, Round round) {
    if (round.listed().stream().noneMatch(s -> holdsAll(s, block))) return false;
    return round.left().stream().noneMatch(s -> mayHold(s, block));
  }

  /**
   * Whether {@code shard} may hold a key that starts with {@code block}; false only where it cannot. Keys that start
   * with a text are one unbroken run in key order, so a bound outside that run on the far side excludes all of them.
   */
  static boolean mayHold(Shard shard, String block) {
    if (!block.startsWith(shard.prefix()) && !shard.prefix().startsWith(block)) return false;
    if (!shard.upTo().isEmpty() && KeyOrder.compare(shard.upTo(), block) < 0) return false;
    return shard.after().isEmpty() || KeyOrder.compare(shard.after(), block) < 0 || shard.after().startsWith(block);
  }

  /** Whether {@code shard} holds every key that starts with {@code block}; true only where it surely does. */
  static boolean holdsAll(Shard shard, String block) {
    return shard.recursive() && block.startsWith(shard.prefix())
        && (shard.after().isEmpty() || KeyOrder.compare(shard.after(), block) < 0)
        && (shard.upTo().isEmpty() || KeyOrder.compare(shard.upTo(), block) > 0 && !shard.upTo().startsWith(block));
  }
}
