package io.ferry.support;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store's archive tier, played by the fault proxy in front of a server that has none (S3Mock keeps an object's
 * storage class and nothing more): a GET, CopyObject or UploadPartCopy of an archived object answers 403
 * InvalidObjectState as AWS S3 does; a RestoreObject answers 202 and starts a restore, 409 RestoreAlreadyInProgress
 * while it runs, 200 once the object is restored; a HEAD carries {@code x-amz-restore} as the restore goes (unless the
 * store is one that tells nothing of restores). A test moves objects along: {@link #thaw} finishes a restore,
 * {@link #expire} lets the restored copy expire; {@link #thawAfterHeads} finishes each restore after so many HEADs.
 */
public final class ArchiveTier implements FaultProxy.Decider {
  public enum State { ARCHIVED, RESTORING, RESTORED }

  private final String bucket;
  private final boolean showsRestores;
  private final Map<String, State> states = new ConcurrentHashMap<>();
  private final Map<String, Integer> restoreRequests = new ConcurrentHashMap<>();
  private final Map<String, Integer> heads = new ConcurrentHashMap<>();
  private final Map<String, Integer> gets = new ConcurrentHashMap<>();
  private final Map<String, Integer> accepted = new ConcurrentHashMap<>();
  private volatile int thawAfterHeads = -1;

  /** @param showsRestores whether a HEAD tells of a restore (x-amz-restore), as AWS and IBM COS do */
  public ArchiveTier(String bucket, boolean showsRestores) {
    this.bucket = bucket;
    this.showsRestores = showsRestores;
  }

  /** {@code key} is archived (the server must list it in an archival class, e.g. put as GLACIER). */
  public ArchiveTier archive(String key) {
    states.put(key, State.ARCHIVED);
    return this;
  }

  public void thaw(String key) {
    states.computeIfPresent(key, (k, s) -> s == State.RESTORING ? State.RESTORED : s);
  }

  public void expire(String key) {
    states.computeIfPresent(key, (k, s) -> State.ARCHIVED);
  }

  /** Each restore under way finishes once its object was asked this many HEADs. */
  public void thawAfterHeads(int n) {
    thawAfterHeads = n;
  }

  public State state(String key) {
    return states.get(key);
  }

  public int restoreRequests(String key) {
    return restoreRequests.getOrDefault(key, 0);
  }

  /**
   * GETs and copies of {@code key} while it could not be read: requests a store would have refused (and billed); a
   * one-byte GET (asking whether it can be read yet) is not one.
   */
  public int refusedReads(String key) {
    return gets.getOrDefault(key, 0);
  }

  /** RestoreObject requests for {@code key} that started a restore (202): what a store bills. */
  public int acceptedRestores(String key) {
    return accepted.getOrDefault(key, 0);
  }

  @Override
  public FaultProxy.Fault decide(FaultProxy.Kind kind, String target, Map<String, String> headers) {
    String key = key(target);
    if (kind == FaultProxy.Kind.COPY_OBJECT || kind == FaultProxy.Kind.UPLOAD_PART_COPY) key = copySource(headers.get("x-amz-copy-source"));
    State state = key == null ? null : states.get(key);
    if (state == null) return null;
    switch (kind) {
      case GET_OBJECT, COPY_OBJECT, UPLOAD_PART_COPY -> {
        if (state == State.RESTORED) return null;
        if (!"bytes=0-0".equals(headers.get("range"))) gets.merge(key, 1, Integer::sum);
        return new FaultProxy.Fault.Status(403, "InvalidObjectState");
      }
      case HEAD_OBJECT -> {
        int seen = heads.merge(key, 1, Integer::sum);
        if (state == State.RESTORING && thawAfterHeads >= 0 && seen >= thawAfterHeads) {
          thaw(key);
          state = State.RESTORED;
        }
        if (!showsRestores || state == State.ARCHIVED) return null;
        return new FaultProxy.Fault.AddHeaders(Map.of("x-amz-restore", state == State.RESTORING ? "ongoing-request=\"true\""
            : "ongoing-request=\"false\", expiry-date=\"Fri, 21 Dec 2040 00:00:00 GMT\""));
      }
      case RESTORE_OBJECT -> {
        restoreRequests.merge(key, 1, Integer::sum);
        return switch (state) {
          case ARCHIVED -> {
            accepted.merge(key, 1, Integer::sum);
            states.put(key, State.RESTORING);
            heads.put(key, 0);
            yield new FaultProxy.Fault.Reply(202, Map.of());
          }
          case RESTORING -> new FaultProxy.Fault.Status(409, "RestoreAlreadyInProgress");
          case RESTORED -> new FaultProxy.Fault.Reply(200, Map.of());
        };
      }
      default -> {
        return null;
      }
    }
  }

  /** The key of a path-style object request to this tier's bucket, decoded; null for another bucket's. */
  private String key(String target) {
    String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
    String head = "/" + bucket + "/";
    return path.startsWith(head) ? URLDecoder.decode(path.substring(head.length()).replace("+", "%2B"), StandardCharsets.UTF_8) : null;
  }

  private String copySource(String source) {
    if (source == null) return null;
    String decoded = URLDecoder.decode(source.replace("+", "%2B"), StandardCharsets.UTF_8);
    if (decoded.contains("?")) decoded = decoded.substring(0, decoded.indexOf('?'));
    String head = bucket + "/";
    if (decoded.startsWith("/")) decoded = decoded.substring(1);
    return decoded.startsWith(head) ? decoded.substring(head.length()) : null;
  }
}
