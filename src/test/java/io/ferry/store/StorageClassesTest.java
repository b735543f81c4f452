package io.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.Provider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StorageClassesTest {
  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(nullValues = "-", value = {
      "-,                                                            AWS",
      "https://s3.eu-west-1.amazonaws.com,                           AWS",
      "https://s3.cn-north-1.amazonaws.com.cn,                       AWS",
      "https://s3.jp-tok.cloud-object-storage.appdomain.cloud,       IBM_COS",
      "https://s3.private.us-south.cloud-object-storage.appdomain.cloud:443/, IBM_COS",
      "https://oss-cn-hangzhou.aliyuncs.com,                         OSS",
      "http://127.0.0.1:9000,                                        OTHER",
      "https://rgw.example.internal,                                 OTHER",
      "https://amazonaws.com.evil.example,                           OTHER",
  })
  void theProviderIsTheEndpointsHost(String endpoint, Provider want) {
    assertThat(Provider.of(endpoint)).isEqualTo(want);
  }

  @ParameterizedTest(name = "{0} from {1} to {2} → ''{3}''")
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      // the default stays the default everywhere
      "                    | AWS     | OSS     |                    | false",
      "STANDARD            | OSS     | AWS     |                    | false",
      // one kind of service: the class as named (a Ceph placement class into the same kind of cluster)
      "COLD                | OTHER   | OTHER   | COLD               | false",
      "DEEP_ARCHIVE        | AWS     | AWS     | DEEP_ARCHIVE       | false",
      // OSS lists its own names: AWS gets its nearest
      "IA                  | OSS     | AWS     | STANDARD_IA        | false",
      "Archive             | OSS     | AWS     | GLACIER            | false",
      "ColdArchive         | OSS     | AWS     | DEEP_ARCHIVE       | false",
      "DeepColdArchive     | OSS     | AWS     | DEEP_ARCHIVE       | false",
      // into OSS, AWS's names its S3 API takes; nothing colder than GLACIER
      "STANDARD_IA         | AWS     | OSS     | STANDARD_IA        | false",
      "GLACIER_IR          | AWS     | OSS     | STANDARD_IA        | false",
      "GLACIER             | AWS     | OSS     | GLACIER            | false",
      "DEEP_ARCHIVE        | AWS     | OSS     | GLACIER            | true",
      "INTELLIGENT_TIERING | AWS     | OSS     |                    | true",
      // IBM COS: the bucket's class, said; IBM's archive listed as GLACIER reaches AWS as GLACIER
      "STANDARD_IA         | AWS     | IBM_COS |                    | true",
      "GLACIER             | IBM_COS | IBM_COS |                    | true",
      "GLACIER             | IBM_COS | AWS     | GLACIER            | false",
      // MinIO, Ceph: reduced redundancy is theirs too; other classes are their operators'
      "REDUCED_REDUNDANCY  | AWS     | OTHER   | REDUCED_REDUNDANCY | false",
      "GLACIER             | AWS     | OTHER   |                    | true",
      "COLD                | OTHER   | AWS     |                    | true",
  })
  void keepNamesTheNearestClassTheDestinationHasAndSaysWhatItCouldNot(String source, Provider from, Provider to, String want,
      boolean lost) {
    StorageClasses.Mapped m = StorageClasses.keep(source, from, to);
    assertThat(m.storageClass()).isEqualTo(want == null ? "" : want);
    assertThat(m.lost().isEmpty()).isEqualTo(!lost);
    if (lost) assertThat(m.lost()).startsWith("storage class " + source.trim() + " (");
  }
}
