import { reachTests } from "../reach";

reachTests({ javaScript: false });
