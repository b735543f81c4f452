package io.ferry.store.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.limits.Meters.Request;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetersTest {
  @ParameterizedTest(name = "{0} ?{1} copy-source={2} is {3}")
  @CsvSource(delimiter = '|', textBlock = """
      HEAD   |                       | false | HEAD
      GET    |                       | false | GET
      GET    | list-type prefix      | false | LIST
      GET    | prefix delimiter      | false | LIST
      GET    | uploads               | false | LIST
      GET    | uploadId              | false | LIST_PARTS
      PUT    |                       | false | PUT
      PUT    |                       | true  | COPY
      PUT    | partNumber uploadId   | false | UPLOAD_PART
      PUT    | partNumber uploadId   | true  | UPLOAD_PART_COPY
      POST   | uploads               | false | CREATE_UPLOAD
      POST   | uploadId              | false | COMPLETE
      POST   | delete                | false | DELETE
      DELETE | uploadId              | false | ABORT
      DELETE |                       | false | DELETE
      PATCH  |                       | false | OTHER
      """)
  void everyRequestOfACopyHasItsKind(String method, String query, boolean copySource, Request kind) {
    Map<String, String> parameters = query == null ? Map.of()
        : Arrays.stream(query.trim().split(" +")).collect(Collectors.toMap(p -> p, p -> ""));
    assertThat(Request.of(method, parameters, copySource)).isEqualTo(kind);
  }

  @ParameterizedTest
  @CsvSource({"200, 0, 0", "404, 1, 0", "503, 1, 1", "429, 1, 1", "0, 1, 0"})
  void answersCountAsErrorsAndThrottling(int status, long errors, long throttled) {
    long requests = Meters.requests(Request.HEAD), e = Meters.errors(), t = Meters.throttled();
    Meters.request(Request.HEAD, status);
    assertThat(Meters.requests(Request.HEAD) - requests).isEqualTo(1);
    assertThat(Meters.errors() - e).isEqualTo(errors);
    assertThat(Meters.throttled() - t).isEqualTo(throttled);
  }
}
