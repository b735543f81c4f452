package io.ferry.plan;

import java.io.Serializable;
import java.util.Objects;

/**
 * One range of one object: the unit the executors copy. A small object is one range covering it whole.
 *
 * @param uploadId the multipart upload the range is a part of ("" for a whole object or a file destination); set
 *     by the driver after planning, when it opens the uploads
 */
public record RangeTask(SourceObject object, int partNumber, int partCount, ByteRange range, String uploadId)
    implements Serializable {
  public RangeTask {
    Objects.requireNonNull(object, "object is null");
    Objects.requireNonNull(range, "range is null");
    Objects.requireNonNull(uploadId, "uploadId is null");
    if (partNumber < 1 || partNumber > partCount) {
      throw new IllegalArgumentException("part " + partNumber + " is outside 1.." + partCount);
    }
    if (range.offset() + range.length() > object.size()) {
      throw new IllegalArgumentException(range + " is beyond the end of " + object.key() + " (" + object.size() + " bytes)");
    }
  }

  public RangeTask(SourceObject object, int partNumber, int partCount, ByteRange range) {
    this(object, partNumber, partCount, range, "");
  }

  public boolean wholeObject() {
    return partCount == 1;
  }

  public RangeTask withUploadId(String id) {
    return new RangeTask(object, partNumber, partCount, range, id);
  }
}
