"use strict";var a=function(){return 1};console.log(a());
