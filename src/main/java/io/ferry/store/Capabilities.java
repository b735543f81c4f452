package io.ferry.store;

import java.io.Serializable;

/**
 * What a planner must know of a destination.
 *
 * @param minPartSize the smallest part of an object written in parts (all but the last)
 * @param maxPartSize the largest part
 * @param maxParts the most parts one object may have; the part size grows for objects that would need more
 * @param resumableWrites a range whose write failed part-way continues at its last byte written (positioned writes);
 *     otherwise the range is sent again from its start
 * @param hierarchicalKeys a key that is also a prefix of other keys ("a" beside "a/b") cannot be written (a
 *     filesystem cannot hold a file and a directory of one name)
 * @param openSendsRequest opening an object for a write in parts is a request to the store (a multipart upload, whose
 *     id every part names), sent before any part is copied; otherwise opening is local and costs nothing
 */
public record Capabilities(long minPartSize, long maxPartSize, int maxParts, boolean resumableWrites, boolean hierarchicalKeys,
    boolean openSendsRequest) implements Serializable {
  public Capabilities {
    if (minPartSize < 1) throw new IllegalArgumentException("minPartSize must be positive: " + minPartSize);
    if (maxPartSize < minPartSize) throw new IllegalArgumentException("maxPartSize is below minPartSize: " + maxPartSize);
    if (maxParts < 1) throw new IllegalArgumentException("maxParts must be positive: " + maxParts);
  }
}
