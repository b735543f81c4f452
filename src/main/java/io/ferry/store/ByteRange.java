package io.ferry.store;

import java.io.Serializable;

/** Bytes [offset, offset + length) of an object. */
public record ByteRange(long offset, long length) implements Serializable {
  public ByteRange {
    if (offset < 0) throw new IllegalArgumentException("offset is negative: " + offset);
    if (length < 0) throw new IllegalArgumentException("length is negative: " + length);
  }

  /** The last byte, inclusive ({@code offset - 1} for an empty range). */
  public long lastByte() {
    return offset + length - 1;
  }

  /** The same range without its first {@code done} bytes: what a retry still has to fetch. */
  public ByteRange skip(long done) {
    if (done < 0 || done > length) throw new IllegalArgumentException("cannot skip " + done + " of " + this);
    return new ByteRange(offset + done, length - done);
  }

  /** The HTTP Range header value, {@code bytes=first-last}. Undefined for an empty range, which needs no request. */
  public String httpRange() {
    if (length == 0) throw new IllegalStateException("an empty range has no HTTP Range header");
    return "bytes=" + offset + "-" + lastByte();
  }
}
