package io.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.Archive.State;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a storage class and a HEAD's restore headers say of an object's bytes, as a boundary table. */
class ArchiveTest {
  @ParameterizedTest(name = "{0} / {1} / {2} -> {3}")
  @CsvSource(nullValues = "-", delimiter = '|', value = {
      // not archived: no HEAD needed, readable whatever the headers
      "-                   | -                                                            | -                   | READABLE",
      "STANDARD            | -                                                            | -                   | READABLE",
      "GLACIER_IR          | -                                                            | -                   | READABLE",
      "STANDARD_IA         | ongoing-request=\"true\"                                     | -                   | READABLE",
      // archived, and what a restore makes of it
      "GLACIER             | -                                                            | -                   | ARCHIVED",
      "GLACIER             | ''                                                           | -                   | ARCHIVED",
      "DEEP_ARCHIVE        | ongoing-request=\"true\"                                     | -                   | RESTORING",
      "GLACIER             | ongoing-request=\"false\", expiry-date=\"Fri, 21 Dec 2012 00:00:00 GMT\" | -     | READABLE",
      "glacier             | ongoing-request=true                                         | -                   | RESTORING",
      "GLACIER             | something else                                               | -                   | ARCHIVED",
      // OSS names
      "Archive             | -                                                            | -                   | ARCHIVED",
      "ColdArchive         | -                                                            | -                   | ARCHIVED",
      "DeepColdArchive     | ongoing-request=\"true\"                                     | -                   | RESTORING",
      // Intelligent-Tiering: archived only in an archive tier, which only a HEAD shows
      "INTELLIGENT_TIERING | -                                                            | -                   | READABLE",
      "INTELLIGENT_TIERING | -                                                            | ARCHIVE_ACCESS      | ARCHIVED",
      "INTELLIGENT_TIERING | ongoing-request=\"true\"                                     | DEEP_ARCHIVE_ACCESS | RESTORING",
      "INTELLIGENT_TIERING | ongoing-request=\"false\", expiry-date=\"x\"                | ARCHIVE_ACCESS      | READABLE",
  })
  void stateFromClassAndHeaders(String storageClass, String restore, String archiveStatus, State expected) {
    assertThat(Archive.of(storageClass, restore, archiveStatus)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}: HEAD {1}, days {2}")
  @CsvSource(nullValues = "-", value = {
      "-, false, true", "STANDARD, false, true", "GLACIER_IR, false, true", "STANDARD_IA, false, true",
      "GLACIER, true, true", "DEEP_ARCHIVE, true, true", "COLD_ARCHIVE, true, true", "ColdArchive, true, true",
      "INTELLIGENT_TIERING, true, false"})
  void whichClassesAHeadAsksAndWhichRestoresTakeDays(String storageClass, boolean head, boolean days) {
    assertThat(Archive.mayBeArchived(storageClass)).isEqualTo(head);
    assertThat(Archive.restoresForDays(storageClass)).isEqualTo(days);
  }
}
