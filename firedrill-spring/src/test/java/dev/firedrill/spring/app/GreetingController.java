package dev.firedrill.spring.app;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** GET /greeting: each call goes through {@link GreetingService}, which the assaults act on. */
@RestController
public class GreetingController {

  private final GreetingService service;

  public GreetingController(GreetingService service) {
    this.service = service;
  }

  @GetMapping("/greeting")
  public String greeting() {
    return service.greet();
  }
}
