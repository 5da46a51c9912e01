import { reachTests } from "../reach";

reachTests({ javaScript: true });
