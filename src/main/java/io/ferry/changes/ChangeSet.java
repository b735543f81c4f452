package io.ferry.changes;

import io.ferry.changes.ChangeEvents.Change;
import io.ferry.config.Selection;
import io.ferry.store.StoreObject;
import io.ferry.store.listing.ObjectFilter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys a delta pass looks at: the changes of the source's bucket under its prefix that the job's folders and globs
 * select, one per key (the latest where their sequencers order them). What a change says is only a reason to look: the
 * pass asks both sides for each key, so a duplicate, a late or a reordered event costs a lookup and changes nothing.
 *
 * @param changes the latest change of each key, by key relative to the source's prefix
 * @param read every change read
 * @param elsewhere changes of another bucket, or outside the source's prefix
 * @param unselected changes under the prefix that the job's folders and globs leave out
 */
public record ChangeSet(Map<String, Change> changes, long read, long elsewhere, long unselected) {
  public ChangeSet {
    changes = Map.copyOf(changes);
  }

  /** The changes of {@code bucket} under {@code prefix} that {@code selection} selects, the latest of each key. */
  public static ChangeSet of(Collection<Change> all, String bucket, String prefix, Selection selection) {
    ObjectFilter filter = new ObjectFilter(selection);
    Map<String, Change> latest = new HashMap<>();
    long elsewhere = 0, unselected = 0;
    for (Change c : all) {
      if (!c.bucket().equals(bucket) || !c.key().startsWith(prefix)) {
        elsewhere++;
        continue;
      }
      String relative = c.key().substring(prefix.length());
      if (relative.isEmpty() || !filter.selectsKey(new StoreObject(c.key(), relative, 0, "", 0))) {
        unselected++;
        continue;
      }
      latest.merge(relative, c, ChangeSet::later);
    }
    return new ChangeSet(latest, all.size(), elsewhere, unselected);
  }

  /** Of two changes of one key, the later; where either has no sequencer, the one read last. */
  static Change later(Change earlier, Change next) {
    if (earlier.sequencer().isEmpty() || next.sequencer().isEmpty()) return next;
    return ChangeEvents.compareSequencers(next.sequencer(), earlier.sequencer()) >= 0 ? next : earlier;
  }

  /** The keys to look up, relative to the source's prefix. */
  public List<String> keys() {
    return new ArrayList<>(changes.keySet());
  }

  /** How many keys' latest change is a removal. */
  public long removed() {
    return changes.values().stream().filter(c -> c.kind() == ChangeEvents.Kind.REMOVED).count();
  }

  /** Changes of a selected key that a later (or equal) one of the same key makes moot. */
  public long superseded() {
    return read - elsewhere - unselected - changes.size();
  }
}
