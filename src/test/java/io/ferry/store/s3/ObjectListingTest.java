package io.ferry.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.store.StoreFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ObjectListingTest {
  private static ObjectListing.Page parse(String xml) throws IOException {
    return ObjectListing.parse(xml.getBytes(StandardCharsets.UTF_8));
  }

  private static final String ENCODED = """
      <?xml version="1.0" encoding="UTF-8"?>
      <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
        <Name>b</Name><Prefix>data%2F</Prefix><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>%2F</Delimiter>
        <EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>
        <Contents>
          <Key>data/a+b%2Bc%20d%C3%A9</Key><LastModified>2026-12-04T22:15:12.345Z</LastModified>
          <ETag>&quot;0123abcd&quot;</ETag><Size>65536</Size>
          <Owner><ID>x</ID><DisplayName>Key</DisplayName></Owner><StorageClass>GLACIER</StorageClass>
        </Contents>
        <Contents><Key>data/%3CKey%3E%26</Key><LastModified>2026-12-04T22:15:13Z</LastModified><ETag>"e-2"</ETag><Size>0</Size>
        </Contents>
        <CommonPrefixes><Prefix>data/sub%20dir/</Prefix></CommonPrefixes>
        <CommonPrefixes><Prefix>data/x%2By/</Prefix></CommonPrefixes>
        <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
      </ListBucketResult>
      """;

  @Test
  void aUrlEncodedPageGivesItsKeysDecodedItsFoldersAndTheTokenAsItCame() throws IOException {
    ObjectListing.Page page = parse(ENCODED);
    assertThat(page.entries()).containsExactly(
        new ObjectListing.Entry("data/a b+c dé", Instant.parse("2026-12-04T22:15:12.345Z").toEpochMilli(), "0123abcd", 65536, "GLACIER"),
        new ObjectListing.Entry("data/<Key>&", Instant.parse("2026-12-04T22:15:13Z").toEpochMilli(), "e-2", 0, null));
    assertThat(page.prefixes()).containsExactly("data/sub dir/", "data/x+y/");
    assertThat(page.truncated()).isTrue();
    // the token is opaque: never decoded ('+' and '/' stay)
    assertThat(page.nextToken()).isEqualTo("1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
  }

  @Test
  void aStoreThatIgnoresTheEncodingGivesItsKeysAsTheyAreAndTheLastPageNoToken() throws IOException {
    ObjectListing.Page page = parse("""
        <ListBucketResult><IsTruncated>false</IsTruncated>
          <Contents><Key>a+b %41</Key><Size>3</Size><ETag>"x"</ETag><LastModified>2026-01-01T00:00:00.000Z</LastModified></Contents>
          <NextContinuationToken>ignored</NextContinuationToken>
        </ListBucketResult>""");
    assertThat(page.entries()).extracting(ObjectListing.Entry::key).containsExactly("a+b %41");
    assertThat(page.truncated()).isFalse();
    assertThat(page.nextToken()).isNull();
    assertThat(parse("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>").entries()).isEmpty();
  }

  @Test
  void aTruncatedPageWithoutATokenOrAnObjectWithoutAKeyIsAnErrorNotAShortListing() {
    assertThatThrownBy(() -> parse("<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>a</Key></Contents>"
        + "</ListBucketResult>")).isInstanceOf(StoreFailure.class).hasMessageContaining("without NextContinuationToken");
    assertThatThrownBy(() -> parse("<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>"))
        .hasMessageContaining("an object without a Key");
    assertThatThrownBy(() -> parse("<ListBucketResult><Contents><Key>a</Key>")).hasMessageContaining("could not be read");
    assertThatThrownBy(() -> parse("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><ListBucketResult><Contents><Key>&e;"
        + "</Key></Contents></ListBucketResult>")).isInstanceOf(IOException.class);
  }
}
